import type * as vscode from 'vscode';
import * as z from 'zod';
import { MAX_PICTURES, type AttachmentChip } from '../../shared/protocol';
import type { PictureStore } from './chatDependencies';
import type { StoredPicture } from './conversationStore';
import { checkPicture, type PictureRefusal } from './pictureCheck';

/** As kept in the workspace state: read back with a check, as a newer or older version may have written it. */
const Pending = z.object({ id: z.string().regex(/^[\w-]{1,100}$/), name: z.string(), type: z.string(), bytes: z.number() });
type Pending = z.infer<typeof Pending>;

const STATE_KEY = 'gigachat.pictures';

export type PictureOutcome = { added: true } | { refused: PictureRefusal | 'full' };

/**
 * Pictures the user attached to the next message (pasted, dropped or picked), shown as chips with
 * thumbnails above the input until the message is sent or a chip removed. The file goes into the
 * picture store at once (the view shows it from there, and the question shows it in the history
 * after a reload); the list is kept in the workspace state, so a reload of the window keeps it.
 * Depends on VS Code's types only, so it runs under plain Node.
 */
export class PendingPictures {
  private pending: Pending[];

  constructor(
    private readonly state: vscode.Memento,
    private readonly store: PictureStore,
  ) {
    const kept = z.array(Pending).max(MAX_PICTURES).safeParse(state.get(STATE_KEY, []));
    this.pending = kept.success ? kept.data : [];
  }

  /** The ids of the pictures waiting: their files must not be cleaned up. */
  get ids(): string[] {
    return this.pending.map((picture) => picture.id);
  }

  /** Checks a picture and keeps it for the next message; `size`: the file's size, when `bytes` were too many to send. */
  async add(name: string, size: number, bytes: Uint8Array | undefined): Promise<PictureOutcome> {
    const checked = checkPicture(size, bytes);
    if ('refused' in checked) return checked;
    if (this.pending.length >= MAX_PICTURES) return { refused: 'full' };
    const id = crypto.randomUUID();
    await this.store.keep(id, bytes as Uint8Array);
    await this.save([...this.pending, { id, name: name.trim() || 'picture', type: checked.type, bytes: size }]);
    return { added: true };
  }

  async remove(id: string): Promise<void> {
    await this.save(this.pending.filter((picture) => picture.id !== id));
  }

  /** The pictures among `ids` (the chips the view showed with the message), which are used up. */
  async take(ids: readonly string[] = []): Promise<StoredPicture[] | undefined> {
    const sent = this.pending.filter((picture) => ids.includes(picture.id));
    if (sent.length === 0) return undefined;
    await this.save(this.pending.filter((picture) => !sent.includes(picture)));
    return sent.map(({ id, name, type }) => ({ id, name, type }));
  }

  /** The chips, with their thumbnails; `title` gives a chip's tooltip from the picture's name and size in bytes. */
  async chips(title: (name: string, bytes: number) => string): Promise<AttachmentChip[]> {
    const thumbnails = new Map((await this.store.attachments(this.ids)).map((picture) => [picture.fileId, picture]));
    return this.pending.map((picture) => ({
      id: picture.id,
      label: picture.name,
      title: title(picture.name, picture.bytes),
      picture: thumbnails.get(picture.id) ?? { fileId: picture.id, unavailable: 'cannotLoad' },
    }));
  }

  private async save(pending: Pending[]): Promise<void> {
    this.pending = pending;
    await this.state.update(STATE_KEY, pending.length > 0 ? pending : undefined);
  }
}
