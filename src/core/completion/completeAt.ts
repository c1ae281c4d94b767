import type { ChatOptions, ServiceClient } from '../client';
import { applyChunk, type ChatReply } from '../chatReply';
import type { Usage } from '../schemas';
import { ANSWER_CLOSE, ANSWER_OPEN, cleanCompletion } from './cleanCompletion';
import { fileWindow, fillMessages, type FillRequest } from './fillPrompt';

export interface CompletionRequest extends FillRequest {
  model: string;
  /** The longest answer, in tokens: a line or a block, not an essay. */
  maxTokens: number;
  /** The file's indentation unit: a tab, or its number of spaces. */
  indent: string;
}

export interface Completion {
  /** The missing text; '' when the model offered none worth showing. */
  text: string;
  /** What the request cost (cached tokens included), when the service said. */
  usage?: Usage;
}

/**
 * Asks the model for the text missing at the cursor, through the one pipeline, and reads the
 * stream only until the answer is complete (its closing tag; in single-line mode, the end of its
 * first line): the connection is closed then, and what the model would write next is not paid
 * for in waiting. The reply is cleaned into exactly the missing text (cleanCompletion.ts).
 */
export async function completeAt(
  client: Pick<ServiceClient, 'chatStream'>,
  request: CompletionRequest,
  options: ChatOptions & { onPartial?: (text: string) => void },
): Promise<Completion> {
  const { prefix, suffix } = fileWindow(request.text, request.offset, request.budgetChars);
  const hole = { prefix, suffix, multiline: request.multiline, indent: request.indent };
  let reply: ChatReply = { content: '' };
  const stream = client.chatStream({ model: request.model, messages: fillMessages(request), max_tokens: request.maxTokens, temperature: 0.1 }, options);
  for await (const chunk of stream) {
    reply = applyChunk(reply, chunk);
    if (answerComplete(reply.content, request.multiline)) break;
    // As far as it has come: the user may be typing something else already (suggester.ts).
    if (chunk.choices[0]?.delta.content) options.onPartial?.(cleanCompletion(reply.content, hole));
  }
  return { text: cleanCompletion(reply.content, hole), usage: reply.usage };
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
