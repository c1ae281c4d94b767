import type { ChatMessage } from '../../core';
import { codebaseText } from './codebasePassages';
import type { Conversation, StoredTurn } from './storedTurns';
import type { QuestionAttachments } from './pictureUploads';

/** What the model is sent for one reply, and which of the conversation's turns that is. */
export interface WireConversation {
  messages: ChatMessage[];
  /** The turns in `messages`, in order, after the system prompt. */
  sent: StoredTurn[];
  /** How many turns before them are left out: the conversation grew too long for the model (`contextFrom`). */
  omitted: number;
}

/**
 * What the model is sent for the reply `pending`: the system prompt first (the service requires
 * it there), then the conversation's finished turns as they were written, from `contextFrom` on,
 * each question with the file ids of its pictures (`attachments`) and the passages of the
 * workspace found for it (codebase context).
 */
export function wireMessages(
  conversation: Conversation,
  pending: StoredTurn,
  systemPrompt: string,
  attachments: QuestionAttachments = new Map(),
): WireConversation {
  // A failed reply, or an empty stopped one, is not part of what the model said.
  const spoken = conversation.turns.filter((turn) => turn !== pending && !(turn.role === 'assistant' && (turn.status === 'error' || turn.content === '')));
  const omitted = Math.max(
    0,
    spoken.findIndex((turn) => turn.id === conversation.contextFrom),
  );
  const sent = spoken.slice(omitted);
  const system: ChatMessage[] = systemPrompt.trim() ? [{ role: 'system', content: systemPrompt.trim() }] : [];
  const message = (turn: StoredTurn): ChatMessage => {
    const files = turn.role === 'user' ? attachments.get(turn.id) : undefined;
    const context = turn.role === 'user' ? codebaseText(turn.codebase?.found) : '';
    // The passages first, the question last: the model reads what it is asked right before answering.
    const content = context ? `${context}\n\n${turn.content}` : turn.content;
    return files?.length ? { role: turn.role, content, attachments: [...files] } : { role: turn.role, content };
  };
  return { messages: [...system, ...sent.map(message)], sent, omitted };
}
