// Validation of a chat completion request body, with the service's status codes and messages:
// 400 for a body that is not JSON, 404 for an unknown model, 422 "Invalid params: ..." otherwise.
// Structured output (`response_format`) is taken on both contracts, as the recorded exchanges show.
import { CHAT_MODELS, CURRENT_CONTRACT_MODELS } from '../constants';
import { parseFunctionCall, parseFunctions, type FunctionCallMode, type OfferedFunction } from '../function-schema';
import { isRecord, modelError, parseJson, type Reply } from '../http';
import { parseMessages, type ChatMessage } from './chat-messages';
import { v1BodyOf } from './chat-v2-body';

export type { ChatMessage } from './chat-messages';

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  stream: boolean;
  maxTokens: number | undefined;
  functions: OfferedFunction[];
  functionCall: FunctionCallMode | undefined;
  /** The service's own tools the request offers: on the previous contract, pictures when calls are `auto`. */
  builtInTools: string[];
  /** Asked of a model that reasons (`reasoning_effort`, `model_options.reasoning.effort`). */
  reasoningEffort: string | undefined;
  /** Structured output asked for: the reply's text is JSON that fits `schema`. */
  jsonSchema: unknown;
  contract: 'v1' | 'v2';
}

const invalid = (detail: string): { error: Reply } => ({ error: modelError(422, `Invalid params: ${detail}`) });

/** The request's body, on either contract (the current one read by chat-v2-body.ts into the previous one's shape). */
export function parseChatRequest(body: string, contract: 'v1' | 'v2'): ChatRequest | { error: Reply } {
  const raw = parseJson(body);
  if (!isRecord(raw)) return { error: modelError(400, 'Bad request: body must be a JSON object') };
  const data = contract === 'v2' ? v1BodyOf(raw) : raw;
  if ('problem' in data) return invalid(String(data.problem));
  if (typeof data.model !== 'string' || data.model === '') return invalid('model is required');
  if (!(contract === 'v2' ? [...CHAT_MODELS, ...CURRENT_CONTRACT_MODELS] : CHAT_MODELS).includes(data.model))
    return { error: modelError(404, 'No such model') };

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

  const builtInTools = contract === 'v2' ? (data.built_in_tools as string[]) : functionCall === 'auto' ? ['image_generate'] : [];
  const format = data.response_format;
  if (format !== undefined && (!isRecord(format) || !['text', 'json_schema', 'regex'].includes(format.type as string)))
    return invalid('response_format.type must be one of text, json_schema, regex');
  if (isRecord(format) && format.type === 'json_schema' && !isRecord(format.schema)) return invalid('response_format.schema must be an object');
  const effort = data.reasoning_effort;
  if (effort !== undefined && !['low', 'medium', 'high'].includes(effort as string)) return invalid('reasoning effort must be low, medium or high');
  return {
    model: data.model,
    messages,
    stream: data.stream === true,
    maxTokens,
    functions,
    functionCall,
    builtInTools,
    reasoningEffort: effort as string | undefined,
    jsonSchema: isRecord(format) && format.type === 'json_schema' ? format.schema : undefined,
    contract,
  };
}
