import { applyChunk, type ChatReply } from '../service/chatReply';
import type { ServiceClient } from '../service/client';
import type { ChatOptions } from '../service/clientOptions';
import { chatStreamWithinContext } from '../service/contextFit';
import type { ChatRequest } from '../service/schemas';

/**
 * One reply of the model as it streams, the one way every chat surface reads it (the panel's
 * replies, `@gigachat`'s and the language model provider's rounds): within the model's context
 * (when the service finds the request too large, the oldest messages are left out and
 * `onShortened` hears how many, see contextFit.ts), the chunks folded into the reply as it stands,
 * which `onReply` hears after each. Resolves to the whole reply; a failure is thrown, after
 * `onReply` heard what had arrived.
 */
export async function streamReply(
  client: Pick<ServiceClient, 'chatStream'>,
  request: ChatRequest,
  options: ChatOptions,
  onShortened: (dropped: number) => void,
  onReply: (reply: ChatReply) => void,
): Promise<ChatReply> {
  let reply: ChatReply = { content: '' };
  for await (const chunk of chatStreamWithinContext(client, request, options, onShortened)) {
    reply = applyChunk(reply, chunk);
    onReply(reply);
  }
  return reply;
}
