import type { ChatChunk, FinishReason, Usage } from './schemas';

/** A streamed reply as it stands after the chunks seen so far. */
export interface ChatReply {
  content: string;
  finishReason?: FinishReason;
  /** Arrives with the second-to-last event; absent until then. */
  usage?: Usage;
  functionsStateId?: string;
  model?: string;
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
  };
}

/** Reads a whole stream into one reply (for callers that do not draw tokens as they come). */
export async function collectReply(chunks: AsyncIterable<ChatChunk>): Promise<ChatReply> {
  let reply: ChatReply = { content: '' };
  for await (const chunk of chunks) reply = applyChunk(reply, chunk);
  return reply;
}
