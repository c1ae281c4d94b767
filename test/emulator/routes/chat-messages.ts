// Validation of a chat request's messages, with the service's 422 details: roles, the one system
// message first, an assistant's function_call (arguments an object, as the contract says), and a
// function result that must be JSON and answer the call just before it, by the same name.
import { isRecord, parseJson } from '../http';

const ROLES = new Set(['system', 'user', 'assistant', 'function']);

export interface ChatMessage {
  role: string;
  content: string;
  /** A function message: the function whose result it carries. */
  name?: string;
  /** An assistant message that called a function. */
  functionCall?: { name: string; arguments: Record<string, unknown> };
  /** A user message: ids of uploaded files. */
  attachments: string[];
}

function parseMessage(item: unknown): ChatMessage | string {
  if (!isRecord(item) || typeof item.role !== 'string' || !ROLES.has(item.role)) {
    return 'message role must be one of system, user, assistant, function';
  }
  // Assistant turns that called a function may carry no content; everything else needs text.
  const content = item.content ?? (item.role === 'assistant' || item.role === 'function' ? '' : undefined);
  if (typeof content !== 'string') return 'message content must be a string';
  const message: ChatMessage = { role: item.role, content, attachments: [] };

  if (item.function_call !== undefined) {
    const call = item.function_call;
    if (item.role !== 'assistant') return 'only an assistant message may carry a function_call';
    if (!isRecord(call) || typeof call.name !== 'string') return 'function_call must have a name';
    if (!isRecord(call.arguments)) return 'function_call.arguments must be an object';
    message.functionCall = { name: call.name, arguments: call.arguments };
  }
  if (item.role === 'function') {
    if (typeof item.name !== 'string' || item.name === '') return 'a function message must have a name';
    if (parseJson(content) === undefined) return 'function message content must be JSON';
    message.name = item.name;
  }
  if (item.attachments !== undefined) {
    if (item.role !== 'user') return 'only a user message may carry attachments';
    if (!Array.isArray(item.attachments) || !item.attachments.every((id) => typeof id === 'string')) {
      return 'attachments must be an array of file ids';
    }
    message.attachments = item.attachments;
  }
  return message;
}

/** The messages, or the 422 detail of the first thing wrong with them. */
export function parseMessages(value: unknown): ChatMessage[] | { problem: string } {
  if (!Array.isArray(value) || value.length === 0) return { problem: 'messages must be a non-empty array' };
  const messages: ChatMessage[] = [];
  for (const item of value) {
    const message = parseMessage(item);
    if (typeof message === 'string') return { problem: message };
    if (message.role === 'function') {
      const asked = messages.at(-1)?.functionCall?.name;
      if (asked !== message.name) {
        return { problem: `function message '${message.name}' must follow the assistant message that called it` };
      }
    }
    messages.push(message);
  }
  const systemAt = messages.flatMap((message, index) => (message.role === 'system' ? [index] : []));
  if (systemAt.length > 1 || (systemAt.length === 1 && systemAt[0] !== 0)) {
    return { problem: 'system message must be the first message' };
  }
  return messages;
}
