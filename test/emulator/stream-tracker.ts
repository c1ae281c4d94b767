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
