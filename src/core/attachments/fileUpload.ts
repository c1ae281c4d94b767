/**
 * What `POST /files` takes, checked before anything is sent, and the multipart form that carries
 * it. The service documents its types and limits (pictures: jpeg, png, tiff, bmp up to 15 MB; text
 * documents up to 40 MB): a file it would refuse is refused here with a clear `invalidRequest`,
 * instead of after uploading up to 40 MB for nothing.
 */
import { randomBytes } from 'node:crypto';
import { ServiceError } from '../serviceError';
import { ATTACHMENT_LIMITS, DOCUMENT_TYPES } from '../../serviceFacts/attachmentLimits';
import { IMAGE_UPLOAD_TYPES, MAX_IMAGE_BYTES } from '../../serviceFacts/fileFacts';

const MiB = 1024 * 1024;

export const UPLOAD_TYPES = {
  image: { limitBytes: MAX_IMAGE_BYTES, types: IMAGE_UPLOAD_TYPES as readonly string[] },
  document: { limitBytes: ATTACHMENT_LIMITS.documentBytes, types: Object.values(DOCUMENT_TYPES) },
} as const;

export interface UploadOptions {
  filename: string;
  /** The file's media type, e.g. `image/png`. */
  contentType: string;
  /** Default `general`, the only purpose the service documents. */
  purpose?: string;
  signal?: AbortSignal;
}

/** The kind of file a media type is, or undefined for one the service does not take. */
export function uploadKind(contentType: string): keyof typeof UPLOAD_TYPES | undefined {
  const type = mediaType(contentType);
  if (UPLOAD_TYPES.image.types.includes(type)) return 'image';
  if (UPLOAD_TYPES.document.types.includes(type)) return 'document';
  return undefined;
}

/** The media type without parameters, lower-case: all the form says, so nothing else can reach a header. */
function mediaType(contentType: string): string {
  return contentType.split(';')[0].trim().toLowerCase();
}

/** Throws the `invalidRequest` the service would answer for this file, before it is sent. */
export function checkUpload(bytes: Uint8Array, options: UploadOptions): void {
  const name = options.filename.trim();
  if (name === '') throw new ServiceError('invalidRequest', 'A file to upload needs a file name.', { code: 'UPLOAD_NO_NAME' });
  const kind = uploadKind(options.contentType);
  if (!kind) {
    throw new ServiceError(
      'invalidRequest',
      `The service does not accept files of type "${options.contentType}" (${name}). ` +
        `It takes pictures (JPEG, PNG, TIFF, BMP) and text documents (TXT, PDF, DOC, DOCX, EPUB, PPT, PPTX).`,
      {
        code: 'UPLOAD_TYPE',
      },
    );
  }
  if (options.purpose !== undefined && !/^[A-Za-z0-9_-]+$/.test(options.purpose)) {
    throw new ServiceError('invalidRequest', `"${options.purpose.slice(0, 40)}" is not a valid upload purpose.`, { code: 'UPLOAD_PURPOSE' });
  }
  if (bytes.byteLength === 0) throw new ServiceError('invalidRequest', `${name} is empty: there is nothing to upload.`, { code: 'UPLOAD_EMPTY' });
  const { limitBytes } = UPLOAD_TYPES[kind];
  if (bytes.byteLength > limitBytes) {
    const what = kind === 'image' ? 'A picture' : 'A document';
    throw new ServiceError('invalidRequest', `${name} is ${sizeOver(bytes.byteLength, limitBytes)}. ${what} may be at most ${megabytes(limitBytes)} MB.`, {
      code: 'UPLOAD_TOO_LARGE',
      limitBytes,
    });
  }
}

function megabytes(bytes: number): string {
  return (bytes / MiB).toFixed(1).replace(/\.0$/, '');
}

/** A size over the limit, in bytes when megabytes would round it down to the limit itself. */
function sizeOver(bytes: number, limitBytes: number): string {
  const size = megabytes(bytes);
  return size === megabytes(limitBytes) ? `${bytes.toLocaleString('en-US')} bytes` : `${size} MB`;
}

/**
 * The multipart/form-data body (RFC 7578): `purpose`, then `file` with its name and type. Quotes
 * and line breaks in the name are escaped as browsers do (%22, %0D, %0A); other characters,
 * Cyrillic included, go as UTF-8. The boundary is random, so no file's bytes can contain it by
 * chance in practice.
 */
export function multipartForm(bytes: Uint8Array, options: UploadOptions): { body: Uint8Array; contentType: string } {
  const boundary = `----gigachat-${randomBytes(16).toString('hex')}`;
  const filename = options.filename.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\n${options.purpose ?? 'general'}\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${mediaType(options.contentType)}\r\n\r\n`;
  const body = Buffer.concat([Buffer.from(head, 'utf8'), bytes, Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8')]);
  return { body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Failures to connect at all: the upload never reached the service. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * Whether an upload that failed with `error` may be sent again without leaving a copy behind: the
 * service refused it before storing it (429, 503) or was never reached. After a 500, 502 or 504, or
 * a connection that broke once the file was sent, it may have been stored with its answer lost: a
 * second upload would leave an orphan copy at the service, which nothing would ever delete.
 */
export function mayUploadAgain(error: ServiceError): boolean {
  if (error.status !== undefined) return error.status === 429 || error.status === 503;
  return error.code !== undefined && NOT_CONNECTED.has(error.code);
}
