import { DEFAULT_PACING, DeltaPacer, type PacerClock, type PacingRule } from '../../../src/host/chat/deltaPacer';

/** A clock moved by hand; timers fire when it passes their time. */
export class ManualClock implements PacerClock {
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

/**
 * The deltas the chat view gets from the host's pacer while a model writes `text` at
 * `charsPerSecond` in pieces of `piece` characters (simulated time: returns at once).
 */
export function pacedStream(text: string, charsPerSecond: number, piece: number, rule: PacingRule = DEFAULT_PACING): { deltas: string[]; clock: ManualClock } {
  const clock = new ManualClock();
  const deltas: string[] = [];
  let received = '';
  let shown = 0;
  const pacer = new DeltaPacer(() => {
    deltas.push(received.slice(shown));
    shown = received.length;
    return shown;
  }, rule, clock);
  for (let at = 0; at < text.length; at += piece) {
    clock.advance((piece / charsPerSecond) * 1000);
    received = text.slice(0, at + piece);
    pacer.offer(received.length);
  }
  clock.advance(rule.maxIntervalMs); // the model stops; what waits still goes out
  return { deltas, clock };
}

