// Validation of a chat completion request body, with the service's status codes and messages:
// 400 for a body that is not JSON, 404 for an unknown model, 422 "Invalid params: ..." otherwise.
import { CHAT_MODELS } from '../constants';
import { parseFunctionCall, parseFunctions, type FunctionCallMode, type OfferedFunction } from '../function-schema';
import { isRecord, modelError, parseJson, type Reply } from '../http';
import { parseMessages, type ChatMessage } from './chat-messages';

export type { ChatMessage } from './chat-messages';

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  stream: boolean;
  maxTokens: number | undefined;
  functions: OfferedFunction[];
  functionCall: FunctionCallMode | undefined;
}

const invalid = (detail: string): { error: Reply } => ({ error: modelError(422, `Invalid params: ${detail}`) });

export function parseChatRequest(body: string): ChatRequest | { error: Reply } {
  const data = parseJson(body);
  if (!isRecord(data)) return { error: modelError(400, 'Bad request: body must be a JSON object') };
  if (typeof data.model !== 'string' || data.model === '') return invalid('model is required');
  if (!CHAT_MODELS.includes(data.model)) return { error: modelError(404, 'No such model') };

  const messages = parseMessages(data.messages);
  if ('problem' in messages) return invalid(messages.problem);

  const maxTokens = data.max_tokens;
  if (maxTokens !== undefined && (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1)) {
    return invalid('max_tokens must be a positive integer');
  }
  if (data.stream !== undefined && typeof data.stream !== 'boolean') return invalid('stream must be a boolean');

  const functions = parseFunctions(data.functions);
  if ('problem' in functions) return invalid(functions.problem);
  const functionCall = parseFunctionCall(data.function_call, functions);
  if (typeof functionCall === 'object' && 'problem' in functionCall) return invalid(functionCall.problem);

  return { model: data.model, messages, stream: data.stream === true, maxTokens, functions, functionCall };
}
