import type { ServiceClient } from './client';
import type { ChatOptions } from './clientOptions';
import { ServiceError } from '../serviceError';
import type { ChatChunk, ChatMessage, ChatRequest } from './schemas';

/**
 * Streams a chat reply, and when the service finds the request too large for the model (413)
 * before the reply has begun, asks again without the older half of the conversation: the system
 * prompt and the last message always go, and what is kept starts with a user message. It goes on
 * halving until the request fits, or only the last message is left and the error stands.
 *
 * `onShortened(dropped)` is told, before the first chunk, how many messages after the system
 * prompt were left out, so the caller can say so and start there next time.
 */
export async function* chatStreamWithinContext(
  client: Pick<ServiceClient, 'chatStream'>,
  request: ChatRequest,
  options: ChatOptions,
  onShortened: (dropped: number) => void,
): AsyncGenerator<ChatChunk> {
  const system = request.messages[0]?.role === 'system' ? [request.messages[0]] : [];
  const conversation = request.messages.slice(system.length);
  let dropped = 0;
  for (;;) {
    const stream = client.chatStream({ ...request, messages: [...system, ...conversation.slice(dropped)] }, options);
    let first: IteratorResult<ChatChunk>;
    try {
      first = await stream.next();
    } catch (error) {
      const fewer = error instanceof ServiceError && error.kind === 'tooLarge' ? dropOlderHalf(conversation, dropped) : undefined;
      if (fewer === undefined) throw error;
      dropped = fewer;
      continue;
    }
    if (dropped > 0) onShortened(dropped);
    if (first.done) return;
    yield first.value;
    yield* stream;
    return;
  }
}

/**
 * How many of `messages` to leave out next, when leaving out `dropped` was still too much: half
 * of the earlier ones kept so far, moved on to a user message. Undefined when only the last is left.
 */
export function dropOlderHalf(messages: readonly ChatMessage[], dropped: number): number | undefined {
  const last = messages.length - 1;
  if (dropped >= last) return undefined;
  let next = dropped + Math.ceil((last - dropped) / 2);
  while (next < last && messages[next].role !== 'user') next++;
  return next;
}
