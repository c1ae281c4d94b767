import { IMAGE_UPLOAD_TYPES, MAX_IMAGE_BYTES } from '../../core/images';
import { sniffImageType } from './viewPictures';

/** Why a picture is not attached: larger than the service takes, not a picture of a type it takes, or empty. */
export type PictureRefusal = 'tooLarge' | 'unsupportedType' | 'empty';

/**
 * Whether the service would take this file as a picture (service-api.md §9: JPEG, PNG, TIFF, BMP, up
 * to 15 MB), checked before it is kept or uploaded, so the user hears why at once instead of after an
 * upload. The type is read from the bytes, not from the name or what the browser says: a file named
 * .png that is not one is refused here, and one the clipboard labels wrongly is taken. `size` is the
 * size the sender gave, for a file too large to have been sent at all.
 */
export function checkPicture(size: number, bytes: Uint8Array | undefined): { type: string } | { refused: PictureRefusal } {
  if (size > MAX_IMAGE_BYTES || (bytes?.byteLength ?? 0) > MAX_IMAGE_BYTES) return { refused: 'tooLarge' };
  if (!bytes || bytes.byteLength === 0) return { refused: 'empty' };
  const type = sniffImageType(bytes);
  if (!type || !(IMAGE_UPLOAD_TYPES as readonly string[]).includes(type)) return { refused: 'unsupportedType' };
  return { type };
}
