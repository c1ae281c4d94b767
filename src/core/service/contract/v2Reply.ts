import { ServiceError, kindForStatus } from '../../serviceError';
import type { ChatChunk, ChatCompletion, FinishReason, Sources, Usage } from '../schemas';
import type { V2Message, V2Part, V2Reply } from './v2Wire';

/**
 * The current contract's replies read into the shapes the extension speaks (the previous
 * contract's chunk and completion), so every caller handles one shape whichever contract answered:
 * - text parts of the assistant's messages are its answer; a picture the model drew (a `files`
 *   part with `target: image`) becomes the tag the previous contract put in the text for it;
 * - `role: "reasoning"` messages (and `reasoning_content`) are its reasoning, apart;
 * - the sources of a web answer, the first function call, the tool state id (either spelling)
 *   and usage (with cached tokens) are carried over, the sources and the call read in the parts
 *   and on the message itself (the SDK's schema allows both), and so is the finish reason,
 *   which a message may carry instead of the reply.
 * The service may put several function calls in one message: the first is taken, and the model
 * asks for the others again once it has its result.
 */
export function v2Delta(reply: V2Reply): ChatChunk['choices'][number]['delta'] {
  const delta: ChatChunk['choices'][number]['delta'] = {};
  let content = '';
  let reasoning = '';
  let sources: Sources | undefined;
  for (const message of reply.messages ?? []) {
    const stateId = message.tool_state_id ?? message.tools_state_id;
    if (stateId) delta.functions_state_id = stateId;
    reasoning += message.reasoning_content ?? '';
    for (const part of partsOf(message)) {
      const text = part.text ?? '';
      if (message.role === 'reasoning') {
        reasoning += text;
        continue;
      }
      content += text + pictureTags(part);
      if (part.inline_data?.sources) sources = { ...sources, ...part.inline_data.sources };
      if (part.function_call && !delta.function_call) delta.function_call = part.function_call;
    }
    if (message.role === 'reasoning') continue;
    if (message.inline_data?.sources) sources = { ...sources, ...message.inline_data.sources };
    if (message.function_call && !delta.function_call) delta.function_call = message.function_call;
  }
  const stateId = reply.tool_state_id ?? reply.tools_state_id;
  if (stateId) delta.functions_state_id = stateId;
  if (content) delta.content = content;
  if (reasoning) delta.reasoning_content = reasoning;
  if (sources) delta.sources = sources;
  return delta;
}

/** One streamed event's data as a chunk. */
export function v2Chunk(reply: V2Reply): ChatChunk {
  const delta = v2Delta(reply);
  return {
    choices: [{ index: 0, delta: { role: 'assistant', ...delta }, finish_reason: finishReasonOf(finishReason(reply)) }],
    ...(reply.model ? { model: reply.model } : {}),
    ...(reply.usage ? { usage: usageOf(reply.usage) } : {}),
  };
}

/** A whole reply as a completion. */
export function v2Completion(reply: V2Reply): ChatCompletion {
  const { content, ...delta } = v2Delta(reply);
  return {
    choices: [{ index: 0, message: { role: 'assistant', content: content ?? '', ...delta }, finish_reason: finishReasonOf(finishReason(reply)) }],
    created: typeof reply.created_at === 'number' ? reply.created_at : Number(reply.created_at ?? 0),
    model: reply.model ?? '',
    object: 'chat.completion',
    ...(reply.usage ? { usage: usageOf(reply.usage) } : {}),
  };
}

function partsOf(message: V2Message): V2Part[] {
  const content = message.content;
  if (content === undefined) return [];
  if (typeof content === 'string') return [{ text: content }];
  if (!Array.isArray(content)) return [content];
  return content.map((part) => (typeof part === 'string' ? { text: part } : part));
}

/** The previous contract's tag for a picture the model drew, which the chat already shows. */
function pictureTags(part: V2Part): string {
  return (part.files ?? [])
    .filter((file) => file.target === 'image' || file.mime?.startsWith('image/'))
    .map((file) => `<img src="${file.id.replace(/"/g, '')}" fuse="true"/>`)
    .join('');
}

/** The reply's finish reason, or the one its last message that has one carries. */
function finishReason(reply: V2Reply): string | null | undefined {
  return reply.finish_reason ?? [...(reply.messages ?? [])].reverse().find((message) => message.finish_reason)?.finish_reason;
}

const FINISH_REASONS: Record<string, FinishReason> = {
  stop: 'stop',
  length: 'length',
  function_call: 'function_call',
  tool_calls: 'function_call',
  blacklist: 'blacklist',
  error: 'error',
  tool_error: 'error',
};

/** Unknown reasons the service may add end the reply as a normal stop would. */
function finishReasonOf(reason: string | null | undefined): FinishReason | undefined {
  if (!reason) return undefined;
  return FINISH_REASONS[reason] ?? 'stop';
}

function usageOf(usage: NonNullable<V2Reply['usage']>): Usage {
  const prompt = usage.input_tokens ?? 0;
  const completion = usage.output_tokens ?? 0;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: usage.total_tokens ?? prompt + completion,
    ...(usage.input_tokens_details?.cached_tokens !== undefined ? { precached_prompt_tokens: usage.input_tokens_details.cached_tokens } : {}),
  };
}

/** An `error` event inside a stream, as the error a failed response would have been. */
export function streamError(body: { status?: number; message?: string }, requestId: string | undefined): ServiceError {
  const status = body.status ?? 500;
  return new ServiceError(kindForStatus(status), `The service stopped the reply: ${body.message ?? `status ${status}`}`, { status, requestId });
}
