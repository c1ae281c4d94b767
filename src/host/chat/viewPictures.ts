import { MAX_IMAGE_BYTES } from '../../serviceFacts/fileFacts';
import type { ImageAttachment } from '../../shared/protocol';

/** The types every webview draws. The service also takes TIFF and BMP, which Chromium does not show. */
const DRAWABLE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/**
 * How the view gets a stored picture: the address it loads the file from, or, when it cannot draw
 * it, why not (the view then offers to open or save it). `address` is the file's webview resource
 * address; `type` its sniffed type (not read for a file too large to show).
 */
export function viewPicture(fileId: string, file: { bytes: number; type?: string; address?: string }): ImageAttachment {
  // The model's pictures are far smaller than the service's limit; a larger file in the pictures folder is offered to open instead.
  if (file.bytes > MAX_IMAGE_BYTES) return { fileId, unavailable: 'tooLarge', bytes: file.bytes };
  if (!file.type || !DRAWABLE_TYPES.has(file.type)) return { fileId, unavailable: 'unsupportedType', bytes: file.bytes };
  if (!file.address) return { fileId, unavailable: 'cannotLoad', bytes: file.bytes };
  return { fileId, src: file.address };
}

/** The type from the file's own magic bytes: the service labels JPEGs `application/jpg`. */
export function sniffImageType(bytes: Uint8Array): string | undefined {
  const starts = (...signature: number[]) => signature.every((byte, index) => bytes[index] === byte);
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'image/png';
  if (starts(0x47, 0x49, 0x46)) return 'image/gif';
  if (bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return 'image/webp';
  if (starts(0x49, 0x49, 0x2a, 0x00) || starts(0x4d, 0x4d, 0x00, 0x2a)) return 'image/tiff';
  if (starts(0x42, 0x4d)) return 'image/bmp';
  return undefined;
}
