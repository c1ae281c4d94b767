import { estimateTokens } from '../../core';
import type { TurnError } from '../../shared/protocol';
import type { ChatSettings, CodebaseSource } from './chatDependencies';
import { withoutCodebaseTag } from '../../shared/codebaseTag';
import type { FileLocation } from '../../shared/fileLinks';
import type { Conversation, FoundPassages, QuotedSource, StoredTurn } from './conversationStore';
import { wireMessages } from './wireMessages';

/** The workspace cannot be searched yet: what the user reads, with the button that lets it be (the reply's error). */
export class CodebaseUnavailable extends Error {
  constructor(readonly described: TurnError) {
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
  const { messages } = wireMessages(conversation, pending, settings.systemPrompt);
  const conversationTokens = messages.reduce((sum, message) => sum + estimateTokens(message.content), 0);
  const room = { model: settings.model, conversationTokens, answerTokens: settings.maxTokens };
  const found = await source.find(withoutCodebaseTag(question.content) || question.content, room, signal);
  const { intro, passages, outro, notice } = found;
  question.codebase = { found: { intro, passages: [...passages], outro } };
  question.notice = [question.notice, notice].filter(Boolean).join(' ') || undefined;
}

/** What goes before a question with codebase context: '' when no passage does. */
export function codebaseText(found: FoundPassages | undefined): string {
  const passages = passagesOf(found);
  if (passages.length === 0) return '';
  return [found?.intro, ...passages.map((passage) => passage.quoted), found?.outro].join('\n\n');
}

/** The files and lines of the passages a question goes with, best first. */
export function codebaseSources(question: StoredTurn): FileLocation[] {
  return passagesOf(question.codebase?.found).map((passage) => passage.source);
}

/** The passages as kept: none from a conversation file that an older version or a hand left without them. */
function passagesOf(found: FoundPassages | undefined): QuotedSource[] {
  return Array.isArray(found?.passages) ? found.passages : [];
}

/** Takes the passage from `source` out of the question's codebase context; false when the question has none such. */
export function removePassage(question: StoredTurn, source: FileLocation): boolean {
  const found = question.codebase?.found;
  const index = found?.passages.findIndex((passage) => sameLocation(passage.source, source)) ?? -1;
  if (!found || index < 0) return false;
  found.passages.splice(index, 1);
  return true;
}

function sameLocation(a: FileLocation, b: FileLocation): boolean {
  return a.file === b.file && a.first === b.first && a.last === b.last;
}
