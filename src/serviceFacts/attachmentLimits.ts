/**
 * The service's documented limits on the files attached to a chat request (service-api.md §11,
 * "Limits on attachments"): one picture per message, at most 10 files per request (the whole
 * conversation sent), under 20 MB of files per request in all, a picture up to 15 MB (JPEG, PNG,
 * TIFF, BMP), a text document up to 40 MB (TXT, PDF, DOC, DOCX, EPUB, PPT, PPTX). Checked before
 * anything is uploaded, so the user hears which limit a file breaks at once, not after an upload.
 */
import { MAX_IMAGE_BYTES } from './fileFacts';

const MiB = 1024 * 1024;

export const ATTACHMENT_LIMITS = {
  picturesPerMessage: 1,
  filesPerRequest: 10,
  /** The files of one request together stay under this. */
  requestBytes: 20 * MiB,
  pictureBytes: MAX_IMAGE_BYTES,
  documentBytes: 40 * MiB,
} as const;

/** The text documents the service takes, by the file name's extension: the media type they are uploaded with. */
export const DOCUMENT_TYPES: Readonly<Record<string, string>> = {
  txt: 'text/plain',
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  epub: 'application/epub+zip',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

/** The media type of a document the service takes, from its name (`report.PDF` → application/pdf); undefined for any other file. */
export function documentType(name: string): string | undefined {
  const extension = fileExtension(name);
  return Object.hasOwn(DOCUMENT_TYPES, extension) ? DOCUMENT_TYPES[extension] : undefined;
}

/** `Report.PDF` → `pdf`; empty for a name without one, or with one no document type could have (over 10 letters and digits). */
export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  const extension = dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
  return /^[a-z0-9]{1,10}$/.test(extension) ? extension : '';
}

export type AttachmentKind = 'picture' | 'document';

/** A file as the limits see it: what it is and how large. */
export interface SizedFile {
  kind: AttachmentKind;
  bytes: number;
}

/**
 * Why a file is not added to a message: a picture where the message has one already, an 11th
 * file, or the message's files would reach 20 MB with it.
 */
export type MessageRefusal = 'secondPicture' | 'tooMany' | 'requestTooLarge';

/** Whether `file` may join the files `waiting` for the same message; the refusal when not. */
export function checkAddition(waiting: readonly SizedFile[], file: SizedFile): MessageRefusal | undefined {
  const pictures = waiting.filter((other) => other.kind === 'picture').length;
  if (file.kind === 'picture' && pictures >= ATTACHMENT_LIMITS.picturesPerMessage) return 'secondPicture';
  if (waiting.length >= ATTACHMENT_LIMITS.filesPerRequest) return 'tooMany';
  if (totalBytes([...waiting, file]) >= ATTACHMENT_LIMITS.requestBytes) return 'requestTooLarge';
  return undefined;
}

/**
 * The files of a conversation that go with one request, oldest first in and out: the newest are
 * kept while they stay within 10 files and under 20 MB together; the older ones are left out (the
 * question they belong to still goes, without them). The newest message's own files always fit,
 * as `checkAddition` kept them within the limits when they were attached.
 */
export function fitToRequest<T extends SizedFile>(files: readonly T[]): { sent: T[]; leftOut: T[] } {
  const sent: T[] = [];
  let bytes = 0;
  let index = files.length - 1;
  for (; index >= 0; index--) {
    const file = files[index];
    if (sent.length >= ATTACHMENT_LIMITS.filesPerRequest || bytes + file.bytes >= ATTACHMENT_LIMITS.requestBytes) break;
    sent.unshift(file);
    bytes += file.bytes;
  }
  return { sent, leftOut: files.slice(0, index + 1) };
}

function totalBytes(files: readonly SizedFile[]): number {
  return files.reduce((sum, file) => sum + file.bytes, 0);
}
