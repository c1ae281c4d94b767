import { createHash } from 'node:crypto';
import type { UploadOptions } from './fileUpload';
import type { FileInfo } from './schemas';
import type { PendingPicture, ServiceConversation } from './toolConversation';

export type UploadFile = (bytes: Uint8Array, options: UploadOptions) => Promise<FileInfo>;

/** Enough for the pictures of a long conversation; the oldest id is forgotten first. */
const MAX_REMEMBERED = 200;

const EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/tiff': 'tiff', 'image/bmp': 'bmp' };

/**
 * Uploads the pictures of a conversation (`POST /files`) and attaches them to their messages.
 * VS Code sends the whole conversation with every request: a picture already uploaded (by its
 * bytes' hash) is attached by its id again, not sent again. Ids are remembered per client, since
 * files are scoped to the client that uploaded them.
 */
export class UploadedPictures {
  private readonly ids = new Map<string, string>();

  constructor(private readonly upload: UploadFile) {}

  async attach(conversation: ServiceConversation, signal?: AbortSignal): Promise<void> {
    for (const picture of conversation.pictures) {
      const message = conversation.messages[picture.messageIndex];
      const id = await this.idOf(picture, signal);
      message.attachments = [...(message.attachments ?? []), id];
    }
  }

  private async idOf(picture: PendingPicture, signal?: AbortSignal): Promise<string> {
    const hash = createHash('sha256').update(picture.bytes).digest('base64');
    const known = this.ids.get(hash);
    if (known) return known;
    // A type the service does not take fails in the upload's own check, with a message naming it.
    const contentType = picture.mimeType;
    const file = await this.upload(picture.bytes, { filename: `picture.${EXTENSIONS[contentType] ?? 'bin'}`, contentType, signal });
    this.ids.set(hash, file.id);
    if (this.ids.size > MAX_REMEMBERED) this.ids.delete(this.ids.keys().next().value as string);
    return file.id;
  }
}
