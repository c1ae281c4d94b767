// Validation of a chat completion request body, with the service's status codes and messages:
// 400 for a body that is not JSON, 404 for an unknown model, 422 "Invalid params: ..." otherwise.
import { CHAT_MODELS } from '../constants';
import { isRecord, modelError, parseJson, type Reply } from '../http';

const ROLES = new Set(['system', 'user', 'assistant', 'function']);

export interface ChatMessage {
  role: string;
  content: string;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  stream: boolean;
  maxTokens: number | undefined;
  functionCall: unknown;
}

const invalid = (detail: string): { error: Reply } => ({ error: modelError(422, `Invalid params: ${detail}`) });

function parseMessages(value: unknown): ChatMessage[] | { error: Reply } {
  if (!Array.isArray(value) || value.length === 0) return invalid('messages must be a non-empty array');
  const messages: ChatMessage[] = [];
  for (const item of value) {
    if (!isRecord(item) || typeof item.role !== 'string' || !ROLES.has(item.role)) {
      return invalid('message role must be one of system, user, assistant, function');
    }
    // Assistant turns that called a function may carry no content; everything else needs text.
    const content = item.content ?? (item.role === 'assistant' || item.role === 'function' ? '' : undefined);
    if (typeof content !== 'string') return invalid('message content must be a string');
    messages.push({ role: item.role, content });
  }
  const systemAt = messages.flatMap((message, index) => (message.role === 'system' ? [index] : []));
  if (systemAt.length > 1 || (systemAt.length === 1 && systemAt[0] !== 0)) {
    return invalid('system message must be the first message');
  }
  return messages;
}

export function parseChatRequest(body: string): ChatRequest | { error: Reply } {
  const data = parseJson(body);
  if (!isRecord(data)) return { error: modelError(400, 'Bad request: body must be a JSON object') };
  if (typeof data.model !== 'string' || data.model === '') return invalid('model is required');
  if (!CHAT_MODELS.includes(data.model)) return { error: modelError(404, 'No such model') };

  const messages = parseMessages(data.messages);
  if (!Array.isArray(messages)) return messages;

  const maxTokens = data.max_tokens;
  if (maxTokens !== undefined && (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1)) {
    return invalid('max_tokens must be a positive integer');
  }
  if (data.stream !== undefined && typeof data.stream !== 'boolean') return invalid('stream must be a boolean');

  return {
    model: data.model,
    messages,
    stream: data.stream === true,
    maxTokens,
    functionCall: data.function_call,
  };
}
