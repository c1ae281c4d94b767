/**
 * One run of a task at a time, joined by every caller that asks while it runs. Any caller's
 * abort, or `stop()`, aborts the run for all of them: each caller shows its own Cancel, and each
 * Cancel means "stop this work".
 */
export class SharedRun<T> {
  private running?: { promise: Promise<T>; stop: AbortController };

  /** The run under way, if any. */
  get current(): Promise<T> | undefined {
    return this.running?.promise;
  }

  /** Joins the run under way, or starts one with `start`; `signal` aborts it. */
  async join(start: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
    let running = this.running;
    if (!running) {
      const stop = new AbortController();
      const started = {
        stop,
        promise: start(stop.signal).finally(() => {
          if (this.running === started) this.running = undefined;
        }),
      };
      running = this.running = started;
    }
    const cancel = () => running.stop.abort();
    if (signal?.aborted) cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      return await running.promise;
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
  }

  /** Aborts the run under way, if any. */
  stop(): void {
    this.running?.stop.abort();
  }
}
