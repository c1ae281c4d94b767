// Counts SSE responses that are open. Cancel tests need proof that the client really closed the
// connection (the server saw 'close'), not just that the client stopped reading.
import type { ServerResponse } from 'node:http';

export class StreamTracker {
  private open = 0;
  private waiters: (() => void)[] = [];

  get count(): number {
    return this.open;
  }

  /** Counts res as open until its 'close' event (normal end, client abort or socket destroyed). */
  track(res: ServerResponse): void {
    this.open += 1;
    res.once('close', () => {
      this.open -= 1;
      if (this.open === 0) this.release();
    });
  }

  whenAllClosed(): Promise<void> {
    if (this.open === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private release(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}

/**
 * Requests served per account (by the scope of their token), from arrival until their response
 * closes: a streamed answer holds its stream to the last byte, as the service's quota counts it.
 */
export class AccountStreams {
  private readonly serving = new Map<string, number>();
  /** Requests refused since the start. */
  refused = 0;

  /** Takes a stream of `scope`'s account for `res`, or returns false (the request gets 429). */
  take(scope: string, limit: number | undefined, res: ServerResponse): boolean {
    const serving = this.serving.get(scope) ?? 0;
    if (limit !== undefined && serving >= limit) {
      this.refused += 1;
      return false;
    }
    this.serving.set(scope, serving + 1);
    res.once('close', () => this.serving.set(scope, (this.serving.get(scope) ?? 1) - 1));
    return true;
  }
}
