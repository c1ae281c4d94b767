import type * as vscode from 'vscode';
import * as z from 'zod';
import { checkAddition, fileExtension, type MessageRefusal } from '../../serviceFacts/attachmentLimits';
import { MAX_ATTACHED_FILES, type AttachmentChip } from '../../shared/protocol';
import { checkFile, type FileRefusal } from './attachmentCheck';
import type { StoredDocument, StoredPicture } from '../../core';
import type { PictureStore } from './pictureStore';

/**
 * As kept in the workspace state: read back with a check, as a newer or older version may have
 * written it. An entry without `kind` is a picture (kept by a version that took pictures only).
 */
const Pending = z.object({
  id: z.string().regex(/^[\w-]{1,100}$/),
  name: z.string(),
  type: z.string(),
  bytes: z.number(),
  kind: z.enum(['picture', 'document']).optional(),
});
type Pending = z.infer<typeof Pending>;

const STATE_KEY = 'gigachat.pictures';

export type FileOutcome = { added: true } | { refused: FileRefusal | MessageRefusal };

/** The files of a message, split as a question keeps them. */
export interface TakenFiles {
  pictures?: StoredPicture[];
  documents?: StoredDocument[];
}

/**
 * Pictures and documents the user attached to the next message (pasted, dropped or picked), shown
 * as chips above the input until the message is sent or a chip removed. Each is checked against
 * the service's limits before it is kept (one picture a message, at most 10 files, under 20 MB in
 * all): a refused one leaves those already attached as they were. The file goes into the picture
 * store at once (the view shows a picture from there, and a reply after a reload uploads it from
 * there); the list is kept in the workspace state, so a reload of the window keeps it. Depends on
 * VS Code's types only, so it runs under plain Node.
 */
export class PendingFiles {
  private pending: Pending[];

  constructor(
    private readonly state: vscode.Memento,
    private readonly store: PictureStore,
  ) {
    const kept = z.array(Pending).max(MAX_ATTACHED_FILES).safeParse(state.get(STATE_KEY, []));
    this.pending = kept.success ? kept.data : [];
  }

  /** The ids of the files waiting: they must not be cleaned up. */
  get ids(): string[] {
    return this.pending.map((file) => file.id);
  }

  /** Checks a file and keeps it for the next message; `size`: the file's size, when `bytes` were too many to send. */
  async add(name: string, size: number, bytes: Uint8Array | undefined): Promise<FileOutcome> {
    const checked = checkFile(name, size, bytes);
    if ('refused' in checked) return checked;
    const waiting = this.pending.map((file) => ({ kind: file.kind ?? 'picture', bytes: file.bytes }));
    const refused = checkAddition(waiting, { kind: checked.kind, bytes: size });
    if (refused) return { refused };
    const id = crypto.randomUUID();
    const extension = checked.kind === 'document' ? fileExtension(name) : undefined;
    await this.store.keep(id, bytes as Uint8Array, extension);
    const fallback = checked.kind === 'document' ? `document.${extension}` : 'picture';
    await this.save([...this.pending, { id, name: name.trim() || fallback, type: checked.type, bytes: size, kind: checked.kind }]);
    return { added: true };
  }

  async remove(id: string): Promise<void> {
    await this.save(this.pending.filter((file) => file.id !== id));
  }

  /** The files among `ids` (the chips the view showed with the message), which are used up. */
  async take(ids: readonly string[] = []): Promise<TakenFiles> {
    const sent = this.pending.filter((file) => ids.includes(file.id));
    if (sent.length === 0) return {};
    await this.save(this.pending.filter((file) => !sent.includes(file)));
    const stored = (kind: 'picture' | 'document') =>
      sent.filter((file) => (file.kind ?? 'picture') === kind).map(({ id, name, type, bytes }) => ({ id, name, type, bytes }));
    const [pictures, documents] = [stored('picture'), stored('document')];
    return { ...(pictures.length ? { pictures } : {}), ...(documents.length ? { documents } : {}) };
  }

  /**
   * The chips: a picture's with its thumbnail, a document's with its type and size; `title` gives a
   * chip's tooltip from the file's name and size in bytes.
   */
  async chips(title: (name: string, bytes: number) => string): Promise<AttachmentChip[]> {
    const pictureIds = this.pending.filter((file) => file.kind !== 'document').map((file) => file.id);
    const thumbnails = new Map((await this.store.attachments(pictureIds)).map((picture) => [picture.fileId, picture]));
    return this.pending.map((file) => {
      const chip = { id: file.id, label: file.name, title: title(file.name, file.bytes) };
      if (file.kind === 'document') return { ...chip, document: { extension: fileExtension(file.name), bytes: file.bytes } };
      return { ...chip, picture: thumbnails.get(file.id) ?? { fileId: file.id, unavailable: 'cannotLoad' } };
    });
  }

  private async save(pending: Pending[]): Promise<void> {
    this.pending = pending;
    await this.state.update(STATE_KEY, pending.length > 0 ? pending : undefined);
  }
}
