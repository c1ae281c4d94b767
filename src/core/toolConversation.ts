import type { FunctionNames } from './functionNames';
import type { ChatMessage } from './schemas';

/**
 * A conversation as VS Code's language model API hands it over (`LanguageModelChatRequestMessage`),
 * read into plain parts by the VS Code layer, and turned into the service's messages here.
 */
export type ConversationPart =
  | { kind: 'text'; text: string }
  | { kind: 'toolCall'; callId: string; toolName: string; input: Record<string, unknown> }
  | { kind: 'toolResult'; callId: string; text: string }
  | { kind: 'picture'; mimeType: string; bytes: Uint8Array };

export interface ConversationMessage {
  role: 'system' | 'user' | 'assistant';
  parts: readonly ConversationPart[];
}

/** A picture of a user message, to upload and attach to `messages[messageIndex]`. */
export interface PendingPicture {
  messageIndex: number;
  mimeType: string;
  bytes: Uint8Array;
}

export interface ServiceConversation {
  messages: ChatMessage[];
  pictures: PendingPicture[];
}

/**
 * The service's messages for a conversation. Where the two disagree:
 * - The service takes one function call per assistant message, its result right after it as a
 *   `function` message naming the function; VS Code puts any number of calls in one assistant
 *   message and their results in the next user message. Each call becomes an assistant message of
 *   its own followed by its result; a call without a result gets one saying so (the service
 *   refuses a call left unanswered), and a result without its call is told as text.
 * - A function result must be JSON: text that is not is sent as a JSON string.
 * - System text (the caller's `instructions`, then VS Code's proposed System role) goes first, in
 *   one system message.
 * `stateIds` gives the `functions_state_id` the service returned with each call, by call id.
 */
export function toServiceConversation(
  conversation: readonly ConversationMessage[],
  names: FunctionNames,
  stateIds: ReadonlyMap<string, string> = new Map(),
  instructions = '',
): ServiceConversation {
  const system: string[] = instructions.trim() ? [instructions.trim()] : [];
  const messages: ChatMessage[] = [];
  const pictures: PendingPicture[] = [];
  const results = resultsByCall(conversation);
  const answered = new Set<string>();
  for (const message of conversation) {
    const text = message.parts.flatMap((part) => (part.kind === 'text' ? [part.text] : [])).join('');
    if (message.role === 'system') {
      if (text) system.push(text);
      continue;
    }
    if (message.role === 'assistant') {
      const calls = message.parts.filter((part) => part.kind === 'toolCall');
      if (text || calls.length === 0) messages.push({ role: 'assistant', content: text });
      for (const call of calls) {
        const name = names.add(call.toolName);
        const stateId = stateIds.get(call.callId);
        messages.push({ role: 'assistant', content: '', function_call: { name, arguments: call.input }, ...(stateId ? { functions_state_id: stateId } : {}) });
        messages.push({ role: 'function', name, content: asJson(results.get(call.callId) ?? NO_RESULT) });
        answered.add(call.callId);
      }
      continue;
    }
    const orphans = message.parts.flatMap((part) => (part.kind === 'toolResult' && !answered.has(part.callId) ? [part.text] : []));
    const content = [...orphans, text].filter(Boolean).join('\n\n');
    const own = message.parts.filter((part) => part.kind === 'picture');
    if (!content && own.length === 0) continue; // only results, already placed after their calls
    for (const picture of own) pictures.push({ messageIndex: messages.length, mimeType: picture.mimeType, bytes: picture.bytes });
    messages.push({ role: 'user', content });
  }
  if (system.length > 0) {
    messages.unshift({ role: 'system', content: system.join('\n\n') });
    for (const picture of pictures) picture.messageIndex += 1;
  }
  return { messages, pictures };
}

/** What the model reads when a call it made was never answered (the caller stopped, or skipped the tool). */
const NO_RESULT = 'The tool was not run: no result.';

function resultsByCall(conversation: readonly ConversationMessage[]): Map<string, string> {
  const results = new Map<string, string>();
  for (const message of conversation) for (const part of message.parts) if (part.kind === 'toolResult') results.set(part.callId, part.text);
  return results;
}

/** JSON as it is; anything else as a JSON string. */
function asJson(text: string): string {
  try {
    JSON.parse(text);
    return text;
  } catch {
    return JSON.stringify(text);
  }
}

/** What the model reads of a message, as text: its text, tool results and calls' arguments (for counting tokens). */
export function messageText(message: ConversationMessage): string {
  return message.parts
    .map((part) => (part.kind === 'text' || part.kind === 'toolResult' ? part.text : part.kind === 'toolCall' ? JSON.stringify(part.input) : ''))
    .join('\n');
}
