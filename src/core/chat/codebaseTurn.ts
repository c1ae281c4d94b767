import { messageText } from '../conversation/turns';
import { estimateTokens } from '../service/tokenCounter';
import type { ChatSettings, CodebaseSource } from './chatDependencies';
import type { Conversation, ReplyError, StoredTurn } from './storedTurns';
import { sentConversation } from './sentConversation';

/** The workspace cannot be searched yet: what the user reads, with the button that lets it be (the reply's error). */
export class CodebaseUnavailable extends Error {
  constructor(readonly described: ReplyError) {
    super(described.message);
  }
}

/** The question `pending` answers, when it was asked with codebase context and none was found for it yet (a Regenerate keeps what was found). */
export function questionWithoutContext(conversation: Conversation, pending: StoredTurn): StoredTurn | undefined {
  const question = conversation.turns[conversation.turns.indexOf(pending) - 1];
  return question?.role === 'user' && question.codebase && question.codebase.found === undefined ? question : undefined;
}

/**
 * Finds the codebase context of `question`, which `pending` answers, within the room the model
 * leaves once the conversation and the answer are counted; the question keeps it (and a notice).
 */
export async function findCodebaseContext(
  conversation: Conversation,
  question: StoredTurn,
  pending: StoredTurn,
  source: CodebaseSource,
  settings: ChatSettings,
  signal: AbortSignal,
): Promise<void> {
  const { messages } = await sentConversation(conversation, pending, settings.systemPrompt);
  const conversationTokens = messages.reduce((sum, message) => sum + estimateTokens(messageText(message)), 0);
  const room = { model: settings.model, conversationTokens, answerTokens: settings.maxTokens };
  const found = await source.find(question.content, room, signal);
  const { intro, passages, outro, notice } = found;
  question.codebase = { found: { intro, passages: [...passages], outro } };
  question.notice = [question.notice, notice].filter(Boolean).join(' ') || undefined;
}
