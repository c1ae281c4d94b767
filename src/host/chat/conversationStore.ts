import type * as vscode from 'vscode';
import type { ConversationSummary, TurnError, TurnStatus, Usage } from '../../shared/protocol';

/** One turn as persisted. Assistant content keeps the model's media tags (they are its context). */
export interface StoredTurn {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  status: TurnStatus;
  finishReason?: string;
  usage?: Usage;
  error?: TurnError;
  contextLabel?: string;
  notice?: string;
}

export interface Conversation {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  /** Sent as X-Session-ID on every turn, so the service can cache the shared prefix. */
  sessionId: string;
  turns: StoredTurn[];
}

/** Where the previous version kept every conversation, under one key. */
const LEGACY_KEY = 'gigachat.conversations';
/** The list of conversations (id, title, when): small, read for History. */
const INDEX_KEY = 'gigachat.conversationIndex';
const CONVERSATION_KEY_PREFIX = 'gigachat.conversation.';
const MAX_CONVERSATIONS = 200;

interface IndexEntry {
  id: string;
  title: string;
  updatedAt: number;
}

/**
 * Conversations of this workspace, kept in its workspace state so they survive restarts: each
 * under a key of its own, plus a small index. A reply is saved every few seconds while it
 * streams, and that writes its own conversation and the index, not the whole history.
 * Depends on the Memento type only, so it can be exercised without VS Code.
 */
export class ConversationStore {
  constructor(private readonly state: vscode.Memento) {
    this.moveLegacyHistory();
  }

  list(): ConversationSummary[] {
    return this.index().map(({ id, title, updatedAt }) => ({ id, title, updatedAt }));
  }

  get(id: string): Conversation | undefined {
    const stored = this.state.get<unknown>(CONVERSATION_KEY_PREFIX + id);
    return isConversation(stored) && stored.id === id ? interruptedRepliesStopped(stored) : undefined;
  }

  /** The conversation used most recently, to reopen after a restart. */
  latest(): Conversation | undefined {
    for (const { id } of this.index()) {
      const found = this.get(id);
      if (found) return found;
    }
    return undefined;
  }

  /** Every stored conversation. */
  all(): Conversation[] {
    return this.index().flatMap(({ id }) => this.get(id) ?? []);
  }

  async save(conversation: Conversation): Promise<void> {
    if (conversation.turns.length === 0) return; // an empty chat is not history
    const { id, title, updatedAt } = conversation;
    const entries = [{ id, title, updatedAt }, ...this.index().filter((entry) => entry.id !== id)].sort((a, b) => b.updatedAt - a.updatedAt);
    const dropped = entries.slice(MAX_CONVERSATIONS);
    // The index is read and written without awaiting in between: saves that overlap do not lose entries.
    await Promise.all([
      this.state.update(CONVERSATION_KEY_PREFIX + id, conversation),
      this.state.update(INDEX_KEY, entries.slice(0, MAX_CONVERSATIONS)),
      ...dropped.map((entry) => this.state.update(CONVERSATION_KEY_PREFIX + entry.id, undefined)),
    ]);
  }

  async delete(id: string): Promise<void> {
    await Promise.all([
      this.state.update(INDEX_KEY, this.index().filter((entry) => entry.id !== id)),
      this.state.update(CONVERSATION_KEY_PREFIX + id, undefined),
    ]);
  }

  /** Newest first; entries of the wrong shape (a broken or future version) are left out. */
  private index(): IndexEntry[] {
    const stored = this.state.get<unknown>(INDEX_KEY);
    return Array.isArray(stored) ? (stored as IndexEntry[]).filter(isIndexEntry).sort((a, b) => b.updatedAt - a.updatedAt) : [];
  }

  /** History written by the previous version (all conversations under one key) moves to a key each. */
  private moveLegacyHistory(): void {
    const legacy = this.state.get<unknown>(LEGACY_KEY);
    if (legacy === undefined) return;
    const conversations = Array.isArray(legacy) ? legacy.filter(isConversation).filter((c) => c.turns.length > 0) : [];
    const known = new Set(this.index().map((entry) => entry.id));
    const moved = conversations.filter((c) => !known.has(c.id));
    // The updates take effect in memory at once (the Memento writes to disk later), so reads right after see them.
    for (const c of moved) void this.state.update(CONVERSATION_KEY_PREFIX + c.id, c);
    const entries = [...this.index(), ...moved.map(({ id, title, updatedAt }) => ({ id, title, updatedAt }))].sort((a, b) => b.updatedAt - a.updatedAt);
    void this.state.update(INDEX_KEY, entries.slice(0, MAX_CONVERSATIONS));
    void this.state.update(LEGACY_KEY, undefined);
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

function isIndexEntry(value: unknown): value is IndexEntry {
  const entry = value as IndexEntry;
  return typeof entry?.id === 'string' && typeof entry.title === 'string' && typeof entry.updatedAt === 'number';
}

/** State written by an older or broken version must not crash the view. */
function isConversation(value: unknown): value is Conversation {
  const c = value as Conversation;
  return typeof c?.id === 'string' && typeof c.title === 'string' && Array.isArray(c.turns) && typeof c.updatedAt === 'number';
}

export function newConversation(): Conversation {
  const now = Date.now();
  return { id: crypto.randomUUID(), title: '', createdAt: now, updatedAt: now, sessionId: crypto.randomUUID(), turns: [] };
}

/** A title from the first user message: its first line, shortened. */
export function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0].replace(/\s+/g, ' ');
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}
