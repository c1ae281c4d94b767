// POST /api/v1/chat/completions: validates the request, picks the deterministic answer
// (text, [long], [blacklist] refusal, a text2image picture, a call of an offered function or the
// text that quotes its result) and shapes it as JSON or as SSE.
import { randomUUID } from 'node:crypto';
import { DEMO_JPEG, MODEL_VERSION } from '../constants';
import { functionResults, nextFunctionCall, type FunctionCall } from '../function-calls';
import { header, json, modelError, type Reply } from '../http';
import {
  attachmentLines,
  blacklistReply,
  functionResultReply,
  imageReply,
  isBlacklisted,
  languageOf,
  textReply,
  truncateToTokens,
  wantsImage,
} from '../replies';
import type { RouteContext } from '../state';
import { estimateTokens, precachedTokens, promptText, usage } from '../usage';
import { checkAttachments, type AttachedFile } from './chat-attachments';
import { parseChatRequest, type ChatRequest } from './chat-request';
import { streamChunks } from './chat-stream';

interface Answer {
  content: string;
  finishReason: 'stop' | 'length' | 'blacklist' | 'function_call';
  functionsStateId: string | undefined;
  functionCall?: FunctionCall;
}

function answer(request: ChatRequest, attached: AttachedFile[], context: RouteContext): Answer {
  const lastUser = [...request.messages].reverse().find((message) => message.role === 'user')?.content ?? '';
  const language = languageOf(lastUser);
  if (isBlacklisted(lastUser)) {
    return { content: blacklistReply(language), finishReason: 'blacklist', functionsStateId: undefined };
  }
  if (context.steeredCall) {
    const { name, arguments: args = {} } = context.steeredCall;
    return { content: '', finishReason: 'function_call', functionsStateId: randomUUID(), functionCall: { name, arguments: args } };
  }
  const functionCall = nextFunctionCall(request);
  if (functionCall) return { content: '', finishReason: 'function_call', functionsStateId: randomUUID(), functionCall };
  // Only "auto" (or forcing it by name) lets the model call its built-in text2image function, as on the real service.
  const forcedImage = typeof request.functionCall === 'object' && request.functionCall.name === 'text2image';
  if (forcedImage || (request.functionCall === 'auto' && wantsImage(lastUser))) {
    const fileId = randomUUID();
    context.state.files.set(fileId, { clientId: header(context.req, 'x-client-id'), content: DEMO_JPEG });
    return { content: imageReply(language, fileId), finishReason: 'stop', functionsStateId: randomUUID() };
  }
  const results = functionResults(request.messages);
  const text = results.length > 0 ? functionResultReply(language, results) : textReply(lastUser);
  const content = text + attachmentLines(language, attached);
  if (request.maxTokens !== undefined && estimateTokens(content) > request.maxTokens) {
    return { content: truncateToTokens(content, request.maxTokens), finishReason: 'length', functionsStateId: undefined };
  }
  return { content, finishReason: 'stop', functionsStateId: undefined };
}

export function chat(context: RouteContext): Reply {
  if (context.req.method !== 'POST') return modelError(405);
  const request = parseChatRequest(context.body);
  if ('error' in request) return request.error;
  const attached = checkAttachments(request, context);
  if ('error' in attached) return attached.error;
  const prompt = promptText(request.messages);
  if (estimateTokens(prompt) > context.state.options.contextTokens) return modelError(413, 'Payload too large');

  const { content, finishReason, functionsStateId, functionCall } = answer(request, attached, context);
  const precached = precachedTokens(context.state.sessions, header(context.req, 'x-session-id'), prompt);
  const counts = usage(prompt, functionCall ? JSON.stringify(functionCall) : content, precached);
  const created = Math.floor(Date.now() / 1000);
  const model = `${request.model}:${MODEL_VERSION}`;

  if (request.stream) {
    return { kind: 'sse', chunks: streamChunks({ content, finishReason, usage: counts, created, model, functionsStateId, functionCall }) };
  }
  const message = {
    role: 'assistant',
    content,
    ...(functionCall ? { function_call: functionCall } : {}),
    ...(functionsStateId ? { functions_state_id: functionsStateId } : {}),
  };
  return json({
    choices: [{ message, index: 0, finish_reason: finishReason }],
    created,
    model,
    object: 'chat.completion',
    usage: counts,
  });
}
