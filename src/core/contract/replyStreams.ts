import { discardBody, type HttpResponse } from '../http';
import { expectEventStream, parseShape } from '../responseBody';
import { ChatChunk } from '../schemas';
import { parseEventJson, sseData, sseEvents, streamEndedEarly } from '../sse';
import { streamError, v2Chunk } from './v2Reply';
import { V2Reply, V2StreamError } from './v2Wire';

/** The previous contract's stream: one chunk per `data:` event, up to `[DONE]`; an answer that is not a stream says what came instead. */
export async function* v1Chunks(res: HttpResponse, url: string): AsyncGenerator<ChatChunk> {
  await expectEventStream(res, url);
  for await (const event of sseData(res.body)) {
    yield parseShape(ChatChunk, parseEventJson(event, url, res.requestId), url, res.requestId);
  }
}

/** The events of the current contract's stream that carry the reply; any other name is skipped. */
const REPLY_EVENTS = new Set(['response.message.delta', 'response.message.done', 'response.tool.completed']);

/**
 * The current contract's stream, read into the same chunks: named events, no `[DONE]`. The reply
 * ends at `response.message.done`: nothing after it is read, and the connection is closed then,
 * since a server (or proxy) may keep it open after its last event. A stream that ends before it
 * throws after yielding what did arrive. An `error` event is the service's failure, with its status,
 * and an answer that is not a stream of events says what came instead.
 */
export async function* v2Chunks(res: HttpResponse, url: string): AsyncGenerator<ChatChunk> {
  await expectEventStream(res, url);
  for await (const received of sseEvents(res.body)) {
    const { event } = received;
    if (event === 'error') throw streamError(parseShape(V2StreamError, parseEventJson(received, url, res.requestId), url, res.requestId), res.requestId);
    if (!REPLY_EVENTS.has(event)) continue;
    const chunk = v2Chunk(parseShape(V2Reply, parseEventJson(received, url, res.requestId), url, res.requestId));
    if (event !== 'response.message.done') {
      yield chunk;
      continue;
    }
    discardBody(res);
    yield chunk;
    return;
  }
  throw streamEndedEarly('no response.message.done event');
}
