import type { ChatFiles } from '../../core';
import type { ImageAttachment } from '../../shared/protocol';

/**
 * The pictures the model drew, and the pictures and documents the user attached, kept on disk
 * (ImageStore): what the chat engine uses of them (`ChatFiles`), and what the host does besides:
 * keep what the user attaches, and give the view its pictures.
 */
export interface PictureStore extends ChatFiles {
  /** Keeps a file the user attached, under `fileId`: a picture (its type read from its bytes), or a document with its `extension`. */
  keep(fileId: string, bytes: Uint8Array, extension?: string): Promise<void>;
  /** The stored pictures as the view gets them, skipping any that are missing. */
  attachments(fileIds: readonly string[]): Promise<ImageAttachment[]>;
}
