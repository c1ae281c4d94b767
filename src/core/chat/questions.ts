import { titleFrom } from './conversations';
import type { Conversation, Prompt, StoredTurn } from './storedTurns';

/** Adds `prompt` as the conversation's next question; the first one names the conversation. */
export function addQuestion(conversation: Conversation, prompt: Prompt): StoredTurn {
  const question = questionTurn(prompt);
  if (conversation.turns.length === 0) conversation.title = titleOf(question);
  conversation.turns.push(question);
  return question;
}

/**
 * Replaces the question `turnId`, and every turn after it, with `prompt` (the Edit button on a
 * question). Code the question was asked about stays named on it unless the new one names its own
 * (an Explain question edited shows the text it was sent with, no longer the Explain label),
 * and so do its pictures and documents (uploaded already, they are not uploaded again) and its codebase context
 * (found again for the new text);
 * the first question renames the conversation. Undefined when the conversation has no such question.
 */
export function replaceQuestion(conversation: Conversation, turnId: string, prompt: Prompt): StoredTurn | undefined {
  const index = conversation.turns.findIndex((turn) => turn.id === turnId && turn.role === 'user');
  if (index < 0) return undefined;
  const [replaced] = conversation.turns.splice(index);
  const question = questionTurn({
    ...prompt,
    contextLabel: prompt.contextLabel ?? replaced.contextLabel,
    notice: prompt.notice ?? replaced.notice,
    pictures: prompt.pictures ?? replaced.pictures,
    documents: prompt.documents ?? replaced.documents,
    // Found again for the new text.
    codebase: prompt.codebase || replaced.codebase !== undefined,
    web: prompt.web || replaced.web,
  });
  if (index === 0) conversation.title = titleOf(question);
  // The model's context started at a turn that is gone: at the new question if it was the one replaced.
  if (conversation.contextFrom !== undefined && !conversation.turns.some((turn) => turn.id === conversation.contextFrom)) {
    conversation.contextFrom = conversation.contextFrom === replaced.id ? question.id : undefined;
  }
  conversation.turns.push(question);
  conversation.updatedAt = Date.now();
  return question;
}

function questionTurn(prompt: Prompt): StoredTurn {
  const question: StoredTurn = {
    id: crypto.randomUUID(),
    role: 'user',
    content: prompt.text,
    status: 'done',
    contextLabel: prompt.contextLabel,
    notice: prompt.notice,
  };
  if (prompt.explained) question.explained = prompt.explained;
  if (prompt.pictures?.length) question.pictures = prompt.pictures;
  if (prompt.documents?.length) question.documents = prompt.documents;
  if (prompt.codebase) question.codebase = {};
  if (prompt.web) question.web = true;
  return question;
}

/** A conversation is named after its first question, and the code that question is about. */
function titleOf(question: StoredTurn): string {
  return titleFrom(question.contextLabel ? `${question.contextLabel}: ${question.content}` : question.content);
}
