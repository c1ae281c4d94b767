import { messageOf } from '../base/errorMessage';
import type { Logger } from '../base/logger';
import type { ChatFiles } from './chatDependencies';
import { pictureIdsOf, questionFileIds, storedPictureIds } from './conversations';
import type { Conversation, ConversationSummary } from './storedTurns';

/**
 * Where the conversations are kept across restarts (the host's ConversationStore, in the
 * workspace's storage). Writes happen in the order asked.
 */
export interface ConversationStorage {
  list(): ConversationSummary[];
  /** Every picture a stored conversation shows. */
  pictureIds(): Set<string>;
  /** A stored conversation; undefined when it is gone or unreadable. */
  get(id: string): Promise<Conversation | undefined>;
  /** The conversation used most recently that can be read now. */
  latest(): Promise<Conversation | undefined>;
  save(conversation: Conversation): Promise<void>;
  delete(id: string): Promise<void>;
}

/**
 * The history as the chat keeps it: saves that never stop a reply (a disk that refuses them is
 * reported once, until a save works again), a conversation deleted while its reply is written never
 * saved again, and deleting a conversation deletes the pictures nothing shows any more.
 */
export class SavedConversations {
  /** Conversations deleted in this window: a reply still being written to one is not saved. */
  private readonly deleted = new Set<string>();
  /** Set while saves fail, so the user is told once rather than every two seconds. */
  private saveFailing = false;

  constructor(
    private readonly store: ConversationStorage,
    private readonly images: ChatFiles,
    private readonly log: Logger,
    /** Tells the user the history is not being saved (a notification that does not wait). */
    private readonly warnSaveFailing: () => void,
    /** The pictures waiting above the input for the next message: kept too. */
    private readonly pending: () => readonly string[] = () => [],
  ) {}

  list(): ConversationSummary[] {
    return this.store.list();
  }

  get(id: string): Promise<Conversation | undefined> {
    return this.store.get(id);
  }

  latest(): Promise<Conversation | undefined> {
    return this.store.latest();
  }

  /** Saves a conversation, unless it was deleted. Never throws: a failing disk must not stop the chat. */
  async save(conversation: Conversation): Promise<void> {
    if (this.deleted.has(conversation.id)) return;
    try {
      await this.store.save(conversation);
      this.saveFailing = false;
    } catch (error) {
      this.log.error(`Could not save the conversation to the history: ${messageOf(error)}`);
      if (this.saveFailing) return;
      this.saveFailing = true;
      this.warnSaveFailing();
    }
  }

  /**
   * Deletes a conversation, then the pictures that neither the history nor `inMemory` (the
   * conversations the chat holds: the one shown, the one a reply is written to) nor the next
   * message show any more:
   * a deleted chat's, a regenerated reply's, those of chats beyond what history keeps.
   * Resolves to the deleted conversation's own files (no other shows them), for the caller to
   * delete at the service: the questions' attached ones (by their id in the store) and the
   * pictures the model drew (their id is the service's).
   */
  async delete(id: string, inMemory: readonly (Conversation | undefined)[]): Promise<{ attached: string[]; drawn: string[] }> {
    this.deleted.add(id);
    const turns = (inMemory.find((conversation) => conversation?.id === id) ?? (await this.store.get(id)))?.turns ?? [];
    await this.store.delete(id);
    const kept = this.store.pictureIds();
    for (const conversation of inMemory) {
      if (conversation?.id === id) continue; // the deleted one, still held while its reply stops
      for (const pictureId of storedPictureIds(conversation?.turns ?? [])) kept.add(pictureId);
    }
    for (const pictureId of this.pending()) kept.add(pictureId);
    try {
      const removed = await this.images.removeAllBut(kept);
      if (removed > 0) this.log.info(`Removed ${removed} pictures no conversation shows any more`);
    } catch (error) {
      this.log.warn(`Could not remove unused pictures: ${messageOf(error)}`);
    }
    const own = (ids: string[]) => ids.filter((fileId) => !kept.has(fileId));
    return { attached: own(questionFileIds(turns)), drawn: own(pictureIdsOf(turns)) };
  }
}
