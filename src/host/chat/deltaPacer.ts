/**
 * When the chat view gets the next piece of a streaming reply.
 *
 * Each message costs the view a task and a frame however little it carries (about 0.1 ms before
 * any drawing, more with it; see test/bench/webviewRender.ts), so a fixed pace — a delta every
 * 32 ms — made a long reply cost the view many times what rendering it once costs. Here the pieces
 * grow with the reply: a delta goes out once at least `minIntervalMs` has passed since the last and
 * the text waiting is at least `share` of what is shown, or once `maxIntervalMs` has passed (so a
 * slow model still shows progress). A reply's first lines arrive at frame pace; later, when the
 * reader is far behind the end anyway, a few lines at a time; and the number of messages grows
 * with the logarithm of the reply's length instead of with the length.
 */
import { type Clock, systemClock } from '../../core';

export interface PacingRule {
  /** Never two deltas closer than this. */
  minIntervalMs: number;
  /** Waiting text goes out after at most this long. */
  maxIntervalMs: number;
  /** A delta of at least this fraction of the text shown goes out as soon as `minIntervalMs` allows. */
  share: number;
}

export const DEFAULT_PACING: PacingRule = { minIntervalMs: 32, maxIntervalMs: 1000, share: 1 / 16 };

/** How long after the last delta the next one is due, given how much is shown and how much waits. */
function deltaDueAfter(rule: PacingRule, shown: number, waiting: number): number {
  return waiting >= shown * rule.share ? rule.minIntervalMs : rule.maxIntervalMs;
}

/**
 * Calls `send` when the rule says a delta is due. The owner calls {@link offer} whenever more text
 * arrived; `send` takes everything waiting and reports how much is shown after it.
 */
export class DeltaPacer {
  private last = -Infinity;
  private shown = 0;
  private timer: unknown;
  private timerDue = Infinity;

  constructor(
    private readonly send: () => number,
    private readonly rule: PacingRule = DEFAULT_PACING,
    private readonly clock: Clock = systemClock,
  ) {}

  /** `length` characters are ready to show in all: sends them now if due, or arranges that they go out when due. */
  offer(length: number): void {
    const waiting = length - this.shown;
    if (waiting <= 0) return;
    const due = this.last + deltaDueAfter(this.rule, this.shown, waiting);
    const now = this.clock.now();
    if (due <= now) {
      this.run();
    } else if (due < this.timerDue) {
      this.cancel();
      this.timerDue = due;
      this.timer = this.clock.setTimeout(() => this.run(), due - now);
    }
  }

  /** Drops a pending delta (the owner sends the final state itself). */
  cancel(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.timerDue = Infinity;
  }

  private run(): void {
    this.cancel();
    this.last = this.clock.now();
    this.shown = this.send();
  }
}
