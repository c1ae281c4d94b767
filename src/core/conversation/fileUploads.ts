import { createHash } from 'node:crypto';
import { ATTACHMENTS_REFUSED } from '../attachments/attachmentErrors';
import { fitToRequest } from '../../serviceFacts/attachmentLimits';
import { ServiceError } from '../serviceError';
import type { UploadOptions } from '../attachments/fileUpload';
import type { FileInfo } from '../service/schemas';
import type { PendingFile, ServiceConversation } from './serviceConversation';
import type { ConversationFile } from './turns';

export type UploadFile = (bytes: Uint8Array, options: UploadOptions) => Promise<FileInfo>;

/** Enough for the files of long conversations; the oldest id is forgotten first. */
const MAX_REMEMBERED = 500;

/**
 * The one uploader: the files of a conversation as the service knows them. Each is uploaded
 * (`POST /files`) once, when a request first needs it, and attached by its file id to every later
 * request that sends it (the whole conversation goes each time). Ids are kept per uploader, and
 * files are scoped to the client that uploaded them: an uploader lives as long as its client.
 *
 * A request takes at most 10 files, under 20 MB in all (attachmentLimits.ts): when a
 * conversation's files no longer fit, the oldest are left out (not uploaded, not attached; their
 * messages still go, as text) and the caller says how many.
 */
export class FileUploads {
  /** A file's key → its id at the service. */
  private readonly ids = new Map<string, string>();

  constructor(private readonly upload: UploadFile) {}

  /** The files that go with the request, how many older ones are left out, and how many of those sent are not uploaded yet. */
  plan(conversation: ServiceConversation): { sent: PendingFile[]; leftOut: number; missing: number } {
    const { sent, leftOut } = fitToRequest(conversation.files.map((pending) => ({ ...pending, kind: pending.file.kind, bytes: pending.file.size })));
    return { sent, leftOut: leftOut.length, missing: sent.filter((pending) => !this.ids.has(pending.file.key)).length };
  }

  /** Uploads what is not uploaded yet and attaches each file sent to its message; resolves to how many files are left out. */
  async attach(conversation: ServiceConversation, signal?: AbortSignal): Promise<{ leftOut: number }> {
    const { sent, leftOut } = this.plan(conversation);
    for (const { messageIndex, file } of sent) {
      const message = conversation.messages[messageIndex];
      message.attachments = [...(message.attachments ?? []), await this.idOf(file, signal)];
    }
    return { leftOut };
  }

  /**
   * The service's ids of the files under `keys` that were uploaded here, forgotten: their
   * conversation is gone, and the caller deletes them at the service.
   */
  forget(keys: readonly string[]): string[] {
    const ids = keys.flatMap((key) => this.ids.get(key) ?? []);
    for (const key of keys) this.ids.delete(key);
    return ids;
  }

  /**
   * Whether `error` says the service no longer has a file uploaded earlier (unknown, or not this
   * client's): then every id is forgotten, so the next attempt uploads the files again.
   */
  forgetIfStale(error: unknown): boolean {
    const stale = error instanceof ServiceError && error.code === ATTACHMENTS_REFUSED && (error.status === 403 || error.status === 404);
    if (!stale || this.ids.size === 0) return false;
    this.ids.clear();
    return true;
  }

  private async idOf(file: ConversationFile, signal?: AbortSignal): Promise<string> {
    const known = this.ids.get(file.key);
    if (known) return known;
    const bytes = await file.read();
    if (!bytes) {
      throw new ServiceError('invalidRequest', `The ${file.kind} ${file.name} attached to the question is no longer stored on this computer.`, {
        code: 'PICTURE_MISSING',
      });
    }
    // A type the service does not take fails in the upload's own check, with a message naming it.
    const { id } = await this.upload(bytes, { filename: file.name, contentType: file.mimeType, signal });
    this.ids.set(file.key, id);
    if (this.ids.size > MAX_REMEMBERED) this.ids.delete(this.ids.keys().next().value as string);
    return id;
  }
}

const EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/tiff': 'tiff', 'image/bmp': 'bmp' };

/** A picture given as bytes (VS Code's data parts), keyed by their hash: the same picture sent again is not uploaded again. */
export function pictureFromBytes(bytes: Uint8Array, mimeType: string): ConversationFile {
  return {
    key: createHash('sha256').update(bytes).digest('base64'),
    name: `picture.${EXTENSIONS[mimeType] ?? 'bin'}`,
    mimeType,
    kind: 'picture',
    size: bytes.byteLength,
    read: () => Promise.resolve(bytes),
  };
}
