import type { Logger } from '../base/logger';

/** Streams an account gets by its key's scope (service-api.md §12): an individual one, a business ten. */
export function streamsOfScope(scope: string): number {
  return scope === 'GIGACHAT_API_B2B' || scope === 'GIGACHAT_API_CORP' ? 10 : 1;
}

/** Successful requests, and the time since the last cut, before the budget grows one stream again. */
const RAISE_AFTER_SUCCESSES = 20;
const RAISE_AFTER_MS = 60_000;

/**
 * How many streams this window lets run at once: the account's (its scope's, or the setting's
 * for an account granted more), cut at once to what was in flight when the service refused one
 * beyond its limit, and grown back one stream at a time after a quiet while.
 */
export class StreamBudget {
  private learned: number;
  private successes = 0;
  private cutAt = 0;
  private told = false;

  constructor(
    private granted: number,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.learned = granted;
  }

  /** Streams to use now. */
  get current(): number {
    return this.learned;
  }

  /** The account's streams changed (another scope or setting): the learning starts over. */
  setGranted(streams: number): void {
    this.granted = Math.max(1, Math.floor(streams));
    this.learned = this.granted;
    this.successes = 0;
  }

  /**
   * The service refused a request while `othersInFlight` other requests of the account were
   * served: the account's real limit is what was in flight. Returns whether the budget was cut.
   */
  refused(othersInFlight: number): boolean {
    if (othersInFlight < 1 || othersInFlight >= this.learned) return false;
    this.learned = othersInFlight;
    this.successes = 0;
    this.cutAt = this.now();
    if (!this.told) {
      this.told = true;
      this.logger.info(
        `GigaChat refused a request beyond the account's streams while ${othersInFlight} other request(s) were served: ` +
          `using ${this.learned} stream(s) at a time now (of ${this.granted}), one more again after a quiet minute.`,
      );
    }
    return true;
  }

  /** A request was served: after enough of them, and a quiet while, one stream more. */
  served(): void {
    if (this.learned >= this.granted) return;
    this.successes += 1;
    if (this.successes >= RAISE_AFTER_SUCCESSES && this.now() - this.cutAt >= RAISE_AFTER_MS) {
      this.learned += 1;
      this.successes = 0;
      this.cutAt = this.now();
    }
  }
}
