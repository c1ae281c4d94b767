import type { ChatChunk, FinishReason, FunctionCall, Sources, Usage } from './schemas';

/** A streamed reply as it stands after the chunks seen so far. */
export interface ChatReply {
  content: string;
  finishReason?: FinishReason;
  /** Arrives with the second-to-last event; absent until then. */
  usage?: Usage;
  functionsStateId?: string;
  model?: string;
  /** Set when the model called a function (finish reason `function_call`); it arrives whole in one delta. */
  functionCall?: { name: string; arguments: Record<string, unknown> };
  /** A reasoning model's thinking, apart from the answer. */
  reasoning?: string;
  /** The pages a web answer cites, by number. */
  sources?: Sources;
}

/** Folds one wire chunk into the reply (choice 0: the service returns one choice). */
export function applyChunk(reply: ChatReply, chunk: ChatChunk): ChatReply {
  const choice = chunk.choices.find((c) => c.index === 0) ?? chunk.choices[0];
  return {
    content: reply.content + (choice?.delta.content ?? ''),
    finishReason: choice?.finish_reason ?? reply.finishReason,
    usage: chunk.usage ?? reply.usage,
    functionsStateId: choice?.delta.functions_state_id ?? reply.functionsStateId,
    model: chunk.model ?? reply.model,
    functionCall: choice?.delta.function_call ? functionCallOf(choice.delta.function_call) : reply.functionCall,
    ...(reply.reasoning !== undefined || choice?.delta.reasoning_content
      ? { reasoning: (reply.reasoning ?? '') + (choice?.delta.reasoning_content ?? '') }
      : {}),
    ...(reply.sources || choice?.delta.sources ? { sources: { ...reply.sources, ...choice?.delta.sources } } : {}),
  };
}

/**
 * The call with its arguments as an object. The contract says they come as one; a JSON string
 * (as other vendors send) is read too rather than lost, and anything else counts as no arguments.
 */
export function functionCallOf(call: FunctionCall): { name: string; arguments: Record<string, unknown> } {
  let args = call.arguments;
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args);
    } catch {
      args = undefined;
    }
  }
  const isObject = typeof args === 'object' && args !== null && !Array.isArray(args);
  return { name: call.name, arguments: isObject ? (args as Record<string, unknown>) : {} };
}

/** Reads a whole stream into one reply (for callers that do not draw tokens as they come). */
export async function collectReply(chunks: AsyncIterable<ChatChunk>): Promise<ChatReply> {
  let reply: ChatReply = { content: '' };
  for await (const chunk of chunks) reply = applyChunk(reply, chunk);
  return reply;
}
