import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { storedPictureIds, writeFileAtomically, type Conversation, type ConversationStorage, type ConversationSummary, type StoredTurn } from '../../core';

/** What the workspace state keeps of each conversation: enough for the history list and for cleaning up pictures. */
interface ConversationEntry {
  id: string;
  title: string;
  updatedAt: number;
  /** The pictures its turns show (files in the image store): the replies', and those attached to its questions. */
  pictureIds: string[];
}

const INDEX_KEY = 'gigachat.conversationIndex';
const MAX_CONVERSATIONS = 200;
/** Conversation ids are UUIDs; anything else never becomes a file name. */
const SAFE_ID = /^[\w-]{1,100}$/;

/**
 * Conversations of this workspace, kept so they survive restarts: each in a file of its own (in
 * the extension's workspace storage), and only the list of them in the workspace state. VS Code
 * writes an extension's whole workspace state on every update, and a reply is saved every two
 * seconds while it streams: such a save must cost one conversation, not the whole history.
 *
 * Writes happen one at a time, in the order asked: a save started while a reply streamed never
 * lands after the final one, nor after a delete. Depends on the Memento type only (and the file
 * system), so it runs without VS Code.
 */
export class ConversationStore implements ConversationStorage {
  private writes: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly state: vscode.Memento,
    /** The folder of the conversation files (created on the first save). */
    private readonly folder: string,
  ) {}

  list(): ConversationSummary[] {
    return this.entries().map(({ id, title, updatedAt }) => ({ id, title, updatedAt }));
  }

  /** Every picture a stored conversation shows. */
  pictureIds(): Set<string> {
    return new Set(this.entries().flatMap((entry) => entry.pictureIds));
  }

  /**
   * A stored conversation; undefined (and dropped from the list) when its file is gone or broken.
   * Throws when the file cannot be read just now (locked, too many open files): it stays listed.
   */
  async get(id: string): Promise<Conversation | undefined> {
    if (!this.entries().some((entry) => entry.id === id)) return undefined;
    await this.writes;
    const conversation = await this.read(id);
    if (conversation) return interruptedRepliesStopped(readableTurns(conversation));
    await this.queue(() => this.setEntries(this.entries().filter((entry) => entry.id !== id)));
    return undefined;
  }

  /** The conversation used most recently that can be read now, to reopen after a restart. */
  async latest(): Promise<Conversation | undefined> {
    for (const { id } of this.entries()) {
      const conversation = await this.get(id).catch(() => undefined);
      if (conversation) return conversation;
    }
    return undefined;
  }

  save(conversation: Conversation): Promise<void> {
    if (conversation.turns.length === 0) return Promise.resolve(); // an empty chat is not history
    // Taken now: the conversation changes while the write waits its turn.
    const text = JSON.stringify(conversation);
    const entry: ConversationEntry = {
      id: conversation.id,
      title: conversation.title,
      updatedAt: conversation.updatedAt,
      pictureIds: storedPictureIds(conversation.turns),
    };
    return this.queue(async () => {
      await fs.mkdir(this.folder, { recursive: true });
      await writeFileAtomically(this.fileOf(conversation.id), text);
      const entries = this.entries();
      const previous = entries.find((e) => e.id === entry.id);
      // While a reply streams nothing in the list changes: the workspace state is left alone.
      if (previous && JSON.stringify(previous) === JSON.stringify(entry)) return;
      const sorted = [entry, ...entries.filter((e) => e.id !== entry.id)].sort((a, b) => b.updatedAt - a.updatedAt);
      await this.setEntries(sorted.slice(0, MAX_CONVERSATIONS));
      for (const dropped of sorted.slice(MAX_CONVERSATIONS)) await this.removeFile(dropped.id);
    });
  }

  delete(id: string): Promise<void> {
    return this.queue(async () => {
      await this.setEntries(this.entries().filter((entry) => entry.id !== id));
      await this.removeFile(id);
    });
  }

  /** The list, newest first. */
  private entries(): ConversationEntry[] {
    const stored = this.state.get<unknown>(INDEX_KEY);
    return Array.isArray(stored) ? stored.filter(isEntry) : [];
  }

  private async setEntries(entries: ConversationEntry[]): Promise<void> {
    await this.state.update(INDEX_KEY, entries);
  }

  /** The conversation in its file; undefined when the file is gone or broken (cut short by a full disk, say). */
  private async read(id: string): Promise<Conversation | undefined> {
    let text: string;
    try {
      text = await fs.readFile(this.fileOf(id), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      const value: unknown = JSON.parse(text);
      return isConversation(value) ? value : undefined;
    } catch {
      return undefined;
    }
  }

  private removeFile(id: string): Promise<void> {
    return fs.rm(this.fileOf(id), { force: true });
  }

  private fileOf(id: string): string {
    // Ids come from the view too: only the shape this store gives them ever names a file.
    if (!SAFE_ID.test(id)) throw new Error(`Not a conversation id: ${id.slice(0, 40)}`);
    return path.join(this.folder, `${id}.json`);
  }

  /** Runs `write` after every write asked for before it; its failure is the caller's, not the next write's. */
  private queue(write: () => Promise<void>): Promise<void> {
    const done = this.writes.then(write);
    this.writes = done.catch(() => undefined);
    return done;
  }
}

/**
 * A reply is saved while it streams; one still streaming in storage was cut off by a reload, a
 * crash or VS Code closing. It keeps the text that arrived and reads as stopped (so it can be
 * regenerated), instead of waiting forever for text that will not come.
 */
function interruptedRepliesStopped(conversation: Conversation): Conversation {
  if (!conversation.turns.some((turn) => turn.status === 'streaming')) return conversation;
  return { ...conversation, turns: conversation.turns.map((turn) => (turn.status === 'streaming' ? { ...turn, status: 'stopped' } : turn)) };
}

/**
 * Turns the chat can show and act on, in a file an older version, a full disk or a hand may have
 * damaged: each has an id the view can send back (Copy, Edit, Regenerate find the turn by it) and
 * text. The store's own turns always do, and are taken as they are.
 */
function readableTurns(conversation: Conversation): Conversation {
  const readable = (turn: StoredTurn) => typeof turn?.id === 'string' && SAFE_ID.test(turn.id) && typeof turn.content === 'string';
  if (conversation.turns.every(readable)) return conversation;
  const turns = conversation.turns
    .filter((turn) => typeof turn === 'object' && turn !== null)
    .map((turn) =>
      readable(turn)
        ? turn
        : { ...turn, id: SAFE_ID.test(String(turn.id)) ? turn.id : crypto.randomUUID(), content: typeof turn.content === 'string' ? turn.content : '' },
    );
  return { ...conversation, turns };
}

/** State or files written by an older or broken version must not crash the view. */
function isEntry(value: unknown): value is ConversationEntry {
  const e = value as ConversationEntry;
  return typeof e?.id === 'string' && SAFE_ID.test(e.id) && typeof e.title === 'string' && typeof e.updatedAt === 'number' && Array.isArray(e.pictureIds);
}

function isConversation(value: unknown): value is Conversation {
  const c = value as Conversation;
  return typeof c?.id === 'string' && typeof c.title === 'string' && Array.isArray(c.turns) && typeof c.updatedAt === 'number';
}
