import type { HttpResponse } from '../network/http';
import { discardBody } from '../network/http';
import { sleep } from '../service/retry';
import type { StreamPriority, StreamScheduler } from './streamScheduler';

/** What a request tells the scheduler: who waits for it, and how to say it is waiting. */
export interface Scheduling {
  /** Default `now`. */
  priority?: StreamPriority;
  signal?: AbortSignal;
  /** `typing`: how long a stream may take to come free before the suggestion is skipped, in ms. */
  maxWaitMs?: number;
  onWait?: (waiting: boolean) => void;
}

/**
 * How long a request refused for the account's limit takes its turn again, in ms, before its 429
 * goes to the caller: a question a minute, background work ten, a suggestion never (the next
 * keystroke asks again).
 */
/** A pause before a refused request takes its turn again, doubled each time, so a limit the window cannot see is not hammered. */
const PAUSE_MS = 50;
const MAX_PAUSE_MS = 2_000;

const PATIENCE_MS: Record<StreamPriority, number> = { now: 60_000, typing: 0, background: 600_000 };

/**
 * Sends a request on a stream of the account: it waits for its turn, and holds the stream until its
 * response's body is read or closed (a streamed answer: its last event, or the caller's stop). A
 * 429 met while other requests of the account were served is the limit, not a failure: the budget
 * is cut and the request waits for its turn again.
 */
export async function sendScheduled(scheduler: StreamScheduler | undefined, call: Scheduling, send: () => Promise<HttpResponse>): Promise<HttpResponse> {
  if (!scheduler) return send();
  const priority = call.priority ?? 'now';
  const started = Date.now();
  let refusals = 0;
  for (;;) {
    const lease = await scheduler.acquire({ priority, signal: call.signal, maxWaitMs: call.maxWaitMs, onWait: call.onWait });
    let res: HttpResponse;
    try {
      res = await send();
    } catch (error) {
      lease.release(false);
      throw error;
    }
    if (res.status !== 429) {
      // Read to its end, the answer was served; closed before (a stop, a cut), its connection is still closing.
      res.body.once('end', () => lease.release(res.status < 500));
      res.body.once('close', () => lease.release(false));
      return res;
    }
    const limit = scheduler.refused(lease);
    if (!limit || Date.now() - started >= PATIENCE_MS[priority] || call.signal?.aborted) return res;
    discardBody(res);
    await sleep(Math.min(MAX_PAUSE_MS, PAUSE_MS * 2 ** refusals++), call.signal);
  }
}
