import type { FunctionNames } from '../service/functionNames';
import type { ChatMessage } from '../service/schemas';
import type { ConversationFile, ConversationMessage } from './turns';

/** A file of a user message, to upload and attach to `messages[messageIndex]`. */
export interface PendingFile {
  messageIndex: number;
  file: ConversationFile;
}

export interface ServiceConversation {
  messages: ChatMessage[];
  /** The conversation's files, oldest first. */
  files: PendingFile[];
}

/**
 * The service's messages for a conversation (the one converter: every surface's turns go through
 * it; `contract/` then writes them on the wire of either contract). Where the two disagree:
 * - The service takes one function call per assistant message, its result right after it as a
 *   `function` message naming the function; VS Code puts any number of calls in one assistant
 *   message and their results in the next user message. Each call becomes an assistant message of
 *   its own followed by its result; a call without a result gets one saying so (the service
 *   refuses a call left unanswered), and a result without its call is told as text.
 * - A function result must be JSON: text that is not is sent as a JSON string.
 * - System text (the caller's `instructions`, then the conversation's own) goes first, in one
 *   system message.
 * - A user message's text parts are joined as written (the workspace's passages before the
 *   question); its files are listed in `files`, to be uploaded and attached (`FileUploads`).
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
  const files: PendingFile[] = [];
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
    const own = message.parts.flatMap((part) => (part.kind === 'file' ? [part.file] : []));
    if (!content && own.length === 0) continue; // only results, already placed after their calls
    for (const file of own) files.push({ messageIndex: messages.length, file });
    messages.push({ role: 'user', content });
  }
  if (system.length > 0) {
    messages.unshift({ role: 'system', content: system.join('\n\n') });
    for (const file of files) file.messageIndex += 1;
  }
  return { messages, files };
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
