import type { ServiceClient } from '../service/client';
import type { ChatOptions } from '../service/clientOptions';
import { cancelled } from '../base/abortable';
import { applyChunk, type ChatReply } from '../service/chatReply';
import type { ChatChunk, Usage } from '../service/schemas';
import { ANSWER_CLOSE, ANSWER_OPEN, cleanCompletion, type HoleContext } from './cleanCompletion';
import { fileWindow, fillMessages, type FillRequest } from './fillPrompt';

export interface CompletionRequest extends FillRequest {
  model: string;
  /** The longest answer, in tokens: a line or a block, not an essay. */
  maxTokens: number;
  /** The file's indentation unit: a tab, or its number of spaces. */
  indent: string;
}

export interface Completion {
  /** The missing text; '' when the model offered none worth showing. (What it cost comes to `onUsage`, once its stream has ended.) */
  text: string;
}

/** How long the rest of a stream is read after its answer: past this, its connection is closed instead. */
const DRAIN_MS = 5_000;

/**
 * The longest reply read, in characters, for an answer of `maxTokens` tokens: the longest tokens
 * (a run of indentation) at twice their usual length, and room for the tags, a fence and a
 * sentence. A reply past it is no answer asked for (a server that ignores `max_tokens`, a model
 * that never closes its tag): read on, every piece of it would be cleaned again, its whole length
 * each time, a megabyte costing seconds of the editor's CPU.
 */
export function longestReply(maxTokens: number): number {
  return maxTokens * 8 + 400;
}

/**
 * The longest a suggestion is waited for, in ms, whatever the chat's timeout: a stalled reply
 * must not hold the suggestions (nor the account's stream) for long. Not retried either: the
 * next pause in typing asks again.
 */
export const SUGGESTION_TIMEOUT_MS = 10_000;

/**
 * Asks the model for the text missing at the cursor, through the one pipeline, and answers as
 * soon as the answer is complete (its closing tag; in single-line mode, the end of its first line):
 * what the model writes next is not waited for. The rest of the stream is still read, in the
 * background, so its connection goes back to the pool: closing it would cost the next suggestion a
 * new TLS handshake, a round trip or two to the service. The reply is cleaned into exactly the
 * missing text (cleanCompletion.ts); what it cost comes to `onUsage` once the stream has ended.
 * A reply longer than any answer asked for is read no further than that (longestReply).
 */
export async function completeAt(
  client: Pick<ServiceClient, 'chatStream'>,
  request: CompletionRequest,
  options: ChatOptions & { onPartial?: (text: string) => void; onUsage?: (usage: Usage) => void },
): Promise<Completion> {
  const { prefix, suffix } = fileWindow(request.text, request.offset, request.budgetChars);
  const hole = { prefix, suffix, multiline: request.multiline, indent: request.indent };
  const drainLimit = new AbortController();
  const limits = [drainLimit.signal, AbortSignal.timeout(SUGGESTION_TIMEOUT_MS)];
  const signal = AbortSignal.any(options.signal ? [options.signal, ...limits] : limits);
  // A suggestion takes a stream of the account only when one is free in time, never before a question.
  const stream = client.chatStream(
    { model: request.model, messages: fillMessages(request), max_tokens: request.maxTokens, temperature: 0.1 },
    { ...options, signal, priority: 'typing', maxRetries: 0 },
  );
  const chunks = stream[Symbol.asyncIterator]();
  const longest = longestReply(request.maxTokens);
  let reply: ChatReply = { content: '' };
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
    reply = applyChunk(reply, next.value);
    if (reply.content.length > longest) {
      // Its connection goes now: the rest is not worth the bytes, and the answer is whatever came before.
      await chunks.return?.(undefined);
      return { text: cleanCompletion(reply.content.slice(0, longest), hole) };
    }
    // As far as it has come: the user may be typing something else already (suggester.ts), and
    // then the request ends here, whole answer or not.
    if (next.value.choices[0]?.delta.content) options.onPartial?.(partialAnswer(reply.content, hole));
    if (options.signal?.aborted) {
      // What has arrived already would still be read without this: the connection goes now.
      await chunks.return?.(undefined);
      throw cancelled();
    }
    if (answerComplete(reply.content, request.multiline)) {
      setTimeout(() => drainLimit.abort(), DRAIN_MS).unref?.();
      void drain(chunks, reply, options.onUsage);
      return { text: cleanCompletion(reply.content, hole) };
    }
  }
  if (reply.usage) options.onUsage?.(reply.usage);
  return { text: cleanCompletion(reply.content, hole) };
}

/** Reads the rest of a stream whose answer is had, for its connection and its usage; its failures are nobody's concern now. */
async function drain(chunks: AsyncIterator<ChatChunk>, reply: ChatReply, onUsage?: (usage: Usage) => void): Promise<void> {
  try {
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) reply = applyChunk(reply, next.value);
    if (reply.usage) onUsage?.(reply.usage);
  } catch {
    // Cut off (the limit, a stop) or failed after the answer: the suggestion stands.
  }
}

/**
 * The suggestion as far as the reply has come: none yet before its answer tag. A reply without
 * the tags is read as code only once it is whole: its first words may yet turn out to be a
 * sentence, and a partial suggestion that the typing contradicts ends the request.
 */
function partialAnswer(content: string, hole: HoleContext): string {
  return content.includes(ANSWER_OPEN) || content.includes(ANSWER_CLOSE) ? cleanCompletion(content, hole) : '';
}

function answerComplete(content: string, multiline: boolean): boolean {
  if (content.includes(ANSWER_CLOSE)) return true;
  if (multiline) return false;
  const open = content.indexOf(ANSWER_OPEN);
  if (open === -1) return false;
  // One line: once a line with code in it has ended (a fence line is not code).
  const lines = content.slice(open + ANSWER_OPEN.length).split('\n');
  return lines.slice(0, -1).some((line) => line.trim() !== '' && !line.trim().startsWith('```'));
}
