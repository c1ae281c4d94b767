import { discardBody, type HttpResponse } from '../../network/http';
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

/** How long the rest of a stream after its last event may take to end before the connection is closed, in ms. */
const END_AFTER_DONE_MS = 2_000;

/**
 * The current contract's stream, read into the same chunks: named events, no `[DONE]`. The reply
 * ends at `response.message.done`: nothing after it is part of it. The rest is read in the
 * background, so a connection the server ends at once is kept for the next request; one it keeps
 * open is closed after END_AFTER_DONE_MS. A stream that ends before done throws after yielding
 * what did arrive. An `error` event is the service's failure, with its status, and an answer that
 * is not a stream of events says what came instead.
 */
export async function* v2Chunks(res: HttpResponse, url: string): AsyncGenerator<ChatChunk> {
  await expectEventStream(res, url);
  const events = sseEvents(res.body);
  for (let next = await events.next(); !next.done; next = await events.next()) {
    const received = next.value;
    const { event } = received;
    if (event === 'error') throw streamError(parseShape(V2StreamError, parseEventJson(received, url, res.requestId), url, res.requestId), res.requestId);
    if (!REPLY_EVENTS.has(event)) continue;
    const chunk = v2Chunk(parseShape(V2Reply, parseEventJson(received, url, res.requestId), url, res.requestId));
    if (event === 'response.message.done') {
      endInBackground(events, res);
      yield chunk;
      return;
    }
    yield chunk;
  }
  throw streamEndedEarly('no response.message.done event');
}

/** Reads what follows the last event, unused, closing the connection if it does not end soon. */
function endInBackground(events: AsyncGenerator<unknown>, res: HttpResponse): void {
  const timer = setTimeout(() => discardBody(res), END_AFTER_DONE_MS);
  void (async () => {
    try {
      while (!(await events.next()).done);
    } catch {
      // closed, or garbled after the answer: nothing of it is used
    } finally {
      clearTimeout(timer);
    }
  })();
}
