import type { Clock } from '../../../src/core';

/** A clock moved by hand; timers fire when it passes their time. */
export class ManualClock implements Clock {
  time = 0;
  private timers: { at: number; run: () => void }[] = [];

  now(): number {
    return this.time;
  }

  setTimeout(run: () => void, ms: number): unknown {
    const timer = { at: this.time + ms, run };
    this.timers.push(timer);
    return timer;
  }

  clearTimeout(timer: unknown): void {
    this.timers = this.timers.filter((t) => t !== timer);
  }

  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const next = this.timers.filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.time = next.at;
      next.run();
    }
    this.time = until;
  }

  get pending(): number {
    return this.timers.length;
  }
}
