import type { ChatMessage } from '../../core';
import type { Conversation, StoredTurn } from './conversationStore';

/**
 * What the model is sent for the reply `pending`: the system prompt first (the service requires
 * it there), then the conversation's finished turns as they were written.
 */
export function wireMessages(conversation: Conversation, pending: StoredTurn, systemPrompt: string): ChatMessage[] {
  const messages: ChatMessage[] = systemPrompt.trim() ? [{ role: 'system', content: systemPrompt.trim() }] : [];
  for (const turn of conversation.turns) {
    if (turn === pending) continue;
    // A failed reply, or an empty stopped one, is not part of what the model said.
    if (turn.role === 'assistant' && (turn.status === 'error' || turn.content === '')) continue;
    messages.push({ role: turn.role, content: turn.content });
  }
  return messages;
}
