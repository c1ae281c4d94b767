// POST /api/v1/chat/completions and /api/v2/chat/completions: validates the request, picks the deterministic answer
// (text, [long], [blacklist] refusal, a text2image picture, a call of an offered function or the
// text that quotes its result) and shapes it as JSON or as SSE.
import { randomUUID } from 'node:crypto';
import { DEMO_JPEG, MODEL_VERSION, MODEL_VERSION_3, REASONING_MODELS } from '../constants';
import { functionResults, nextFunctionCall, type FunctionCall } from '../function-calls';
import { header, json, modelError, type Reply } from '../http';
import {
  attachmentLines,
  blacklistReply,
  functionResultReply,
  imageReply,
  imageTag,
  isBlacklisted,
  languageOf,
  textReply,
  truncateToTokens,
  reasoningReply,
  wantsImage,
} from '../replies';
import { completionAnswer, isCompletionRequest } from '../completion-answers';
import { noisyCompletion } from '../completion-noise';
import { pageReadLines, webAnswer, WEB_PAGES_TOKENS } from '../web-answers';
import type { RouteContext } from '../state';
import { estimateTokens, precachedTokens, promptText, usage } from '../usage';
import { isFindingsRequest, looseFindingsAnswer, structuredAnswer } from '../structured-answers';
import { checkAttachments, type AttachedFile } from './chat-attachments';
import { parseChatRequest, type ChatRequest } from './chat-request';
import { streamChunks, v1Reply } from './chat-stream';
import { v2Events, v2Reply } from './chat-v2-reply';

export interface Answer {
  content: string;
  finishReason: 'stop' | 'length' | 'blacklist' | 'function_call';
  functionsStateId: string | undefined;
  functionCall?: FunctionCall;
  /** What a reasoning model thought before answering, sent apart from the answer. */
  reasoning?: string;
  /** A picture the model drew (the current contract sends it as a `files` part, not a tag in the text). */
  pictureId?: string;
  /** A web answer's sources, by the number its text cites. */
  sources?: Record<string, { url: string; title: string }>;
}

function answer(request: ChatRequest, attached: AttachedFile[], context: RouteContext): Answer {
  const lastUser = [...request.messages].reverse().find((message) => message.role === 'user')?.content ?? '';
  const language = languageOf(lastUser);
  if (isBlacklisted(lastUser)) {
    return { content: blacklistReply(language), finishReason: 'blacklist', functionsStateId: undefined };
  }
  const system = request.messages.find((message) => message.role === 'system')?.content;
  if (request.jsonSchema !== undefined || isFindingsRequest(system)) {
    const prompt = promptText(request.messages);
    return cutAt(request.jsonSchema !== undefined ? structuredAnswer(request.jsonSchema, prompt) : looseFindingsAnswer(prompt), request.maxTokens);
  }
  if (context.steeredCall) {
    const { name, arguments: args = {} } = context.steeredCall;
    return { content: '', finishReason: 'function_call', functionsStateId: randomUUID(), functionCall: { name, arguments: args } };
  }
  if (isCompletionRequest(system, lastUser)) {
    const steered = context.steeredCompletion;
    const content = steered ? noisyCompletion(steered.missing, steered.noise, lastUser) : completionAnswer(lastUser);
    return { content, finishReason: 'stop', functionsStateId: undefined };
  }
  const functionCall = nextFunctionCall(request);
  if (functionCall) return { content: '', finishReason: 'function_call', functionsStateId: randomUUID(), functionCall };
  // Only an offered picture tool (v1: calls "auto", or forcing text2image by name) lets the model draw, as on the real service.
  const forcedImage = typeof request.functionCall === 'object' && request.functionCall.name === 'text2image';
  if (forcedImage || (request.builtInTools.includes('image_generate') && wantsImage(lastUser))) {
    const fileId = randomUUID();
    context.state.files.set(fileId, { clientId: header(context.req, 'x-client-id'), content: DEMO_JPEG });
    if (request.contract === 'v2') return { content: imageReply(language), finishReason: 'stop', functionsStateId: randomUUID(), pictureId: fileId };
    return { content: `${imageTag(fileId)} ${imageReply(language)}`, finishReason: 'stop', functionsStateId: randomUUID() };
  }
  const web = request.builtInTools.includes('web_search') ? webAnswer(lastUser) : undefined;
  if (web) return { ...web, finishReason: 'stop', functionsStateId: randomUUID(), reasoning: reasoningOf(request, lastUser) };
  const results = functionResults(request.messages);
  const text = results.length > 0 ? functionResultReply(language, results) : textReply(lastUser);
  const read = request.builtInTools.includes('url_content_extraction') ? pageReadLines(lastUser) : '';
  const content = text + read + attachmentLines(language, attached);
  const reasoning = reasoningOf(request, lastUser);
  if (request.maxTokens !== undefined && estimateTokens(content) > request.maxTokens) {
    return { content: truncateToTokens(content, request.maxTokens), finishReason: 'length', functionsStateId: undefined, reasoning };
  }
  return { content, finishReason: 'stop', functionsStateId: undefined, reasoning };
}

/** The answer as far as the model's own output limit lets it go (an injected `outputLimit` fault). */
function limited(answered: Answer, outputLimit: number | undefined): Answer {
  if (outputLimit === undefined || answered.functionCall || estimateTokens(answered.content) <= outputLimit) return answered;
  return { ...answered, content: truncateToTokens(answered.content, outputLimit), finishReason: 'length' };
}

/** The answer as the service gives it with `max_tokens`: cut there, and said so by the finish reason (JSON too: the service does not close it). */
function cutAt(content: string, maxTokens: number | undefined): Answer {
  if (maxTokens === undefined || estimateTokens(content) <= maxTokens) return { content, finishReason: 'stop', functionsStateId: undefined };
  return { content: truncateToTokens(content, maxTokens), finishReason: 'length', functionsStateId: undefined };
}

/** A reasoning model thinks aloud; another model asked for an effort does too (GigaChat 3 takes one). */
function reasoningOf(request: ChatRequest, question: string): string | undefined {
  const reasons = request.model === 'GigaChat-2-Reasoning' || (request.reasoningEffort !== undefined && REASONING_MODELS.includes(request.model));
  return reasons ? reasoningReply(languageOf(question), question) : undefined;
}

export function chat(context: RouteContext, contract: 'v1' | 'v2'): Reply {
  if (context.req.method !== 'POST') return modelError(405);
  const request = parseChatRequest(context.body, contract);
  if ('error' in request) return request.error;
  const attached = checkAttachments(request, context);
  if ('error' in attached) return attached.error;
  const prompt = promptText(request.messages);
  if (estimateTokens(prompt) > context.state.options.contextTokens) return modelError(413, 'Payload too large');

  const answered = limited(answer(request, attached, context), context.outputLimit);
  const { content, functionCall, sources } = answered;
  const precached = precachedTokens(context.state.sessions, header(context.req, 'x-session-id'), prompt);
  // The pages a web search found are read by the model: they count as input (a recorded web answer cost 23,767).
  const counts = usage(prompt, functionCall ? JSON.stringify(functionCall) : content, precached, sources ? WEB_PAGES_TOKENS : 0);
  const created = Math.floor(Date.now() / 1000);
  const model = `${request.model}:${request.model.startsWith('GigaChat-3') ? MODEL_VERSION_3 : MODEL_VERSION}`;
  const reply = { ...answered, usage: counts, created, model };
  if (contract === 'v2') return request.stream ? { kind: 'sse', ...v2Events(reply) } : json(v2Reply(reply));
  if (request.stream) return { kind: 'sse', chunks: streamChunks(reply) };
  return json(v1Reply(reply));
}
