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

const STATE_KEY = 'gigachat.conversations';
const MAX_CONVERSATIONS = 200;

/**
 * Conversations of this workspace, kept in its workspace state so they survive restarts.
 * Depends on the Memento type only, so it can be exercised without VS Code.
 */
export class ConversationStore {
  constructor(private readonly state: vscode.Memento) {}

  list(): ConversationSummary[] {
    return this.all()
      .filter((c) => c.turns.length > 0)
      .sort((a, b) => b.updatedAt - a.updatedAt)
      .map(({ id, title, updatedAt }) => ({ id, title, updatedAt }));
  }

  get(id: string): Conversation | undefined {
    return this.all().find((c) => c.id === id);
  }

  /** The conversation used most recently, to reopen after a restart. */
  latest(): Conversation | undefined {
    return this.all().sort((a, b) => b.updatedAt - a.updatedAt)[0];
  }

  async save(conversation: Conversation): Promise<void> {
    if (conversation.turns.length === 0) return; // an empty chat is not history
    const others = this.all().filter((c) => c.id !== conversation.id);
    const kept = [conversation, ...others].sort((a, b) => b.updatedAt - a.updatedAt).slice(0, MAX_CONVERSATIONS);
    await this.state.update(STATE_KEY, kept);
  }

  async delete(id: string): Promise<void> {
    await this.state.update(STATE_KEY, this.all().filter((c) => c.id !== id));
  }

  /** Every stored conversation. */
  all(): Conversation[] {
    const stored = this.state.get<unknown>(STATE_KEY);
    return Array.isArray(stored) ? (stored as Conversation[]).filter(isConversation).map(interruptedRepliesStopped) : [];
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
