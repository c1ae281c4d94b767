import { ATTACHMENT_LIMITS, documentType, type AttachmentKind } from '../../serviceFacts/attachmentLimits';
import { IMAGE_UPLOAD_TYPES } from '../../serviceFacts/fileFacts';
import { sniffImageType } from './viewPictures';

/**
 * Why a file is not attached: a picture over 15 MB, a document over 40 MB, one of 20 MB or more
 * (a request takes less than that in all), a type the service does not take, or nothing in it.
 */
export type FileRefusal = 'pictureTooLarge' | 'documentTooLarge' | 'requestTooLarge' | 'unsupportedType' | 'empty';

/** A file the service would take: a picture or a document, and the media type it is uploaded with. */
export interface CheckedFile {
  kind: AttachmentKind;
  type: string;
}

/**
 * Whether the service would take this file (service-api.md §9 and §11): a picture in JPEG, PNG, TIFF
 * or BMP up to 15 MB, or a text document (TXT, PDF, DOC, DOCX, EPUB, PPT, PPTX) up to 40 MB; checked
 * before it is kept or uploaded, so the user hears why at once instead of after an upload. A
 * picture's type is read from its bytes, not from its name or what the browser says (a file named
 * .png that is not one is refused, one the clipboard labels wrongly is taken); a document's comes
 * from its name, as nothing in a plain text file says what it is. `size` is the size the sender
 * gave, for a file too large to have been sent at all (then `bytes` is undefined).
 */
export function checkFile(name: string, size: number, bytes: Uint8Array | undefined): CheckedFile | { refused: FileRefusal } {
  const length = Math.max(size, bytes?.byteLength ?? 0);
  const pictureType = bytes && sniffImageType(bytes);
  const document = pictureType ? undefined : documentType(name);
  if (document) {
    if (length > ATTACHMENT_LIMITS.documentBytes) return { refused: 'documentTooLarge' };
    if (length >= ATTACHMENT_LIMITS.requestBytes) return { refused: 'requestTooLarge' };
    if (!bytes || bytes.byteLength === 0) return { refused: 'empty' };
    return { kind: 'document', type: document };
  }
  if (length > ATTACHMENT_LIMITS.pictureBytes) return { refused: 'pictureTooLarge' };
  if (!bytes || bytes.byteLength === 0) return { refused: 'empty' };
  if (!pictureType || !(IMAGE_UPLOAD_TYPES as readonly string[]).includes(pictureType)) return { refused: 'unsupportedType' };
  return { kind: 'picture', type: pictureType };
}
