import { ServiceError } from '../serviceError';
import { backoffDelay, sleep } from '../service/retry';
import { indexingCancelled } from './indexingCancelled';

export interface RateLimitPolicy {
  /** Retries of one batch after 429s before the run fails. Default 10. */
  maxRetries: number;
  /** Backoff when a 429 names no Retry-After: about baseDelayMs · 2ⁿ with jitter, capped. Defaults 1 000 / 30 000. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this fails the run instead of being waited out. Default 120 000. */
  maxRetryAfterMs: number;
}

export const defaultRateLimitPolicy: RateLimitPolicy = { maxRetries: 10, baseDelayMs: 1_000, maxDelayMs: 30_000, maxRetryAfterMs: 120_000 };

export type EmbedFunction = (texts: string[], signal?: AbortSignal) => Promise<Float32Array[]>;

export interface LimiterHooks {
  onRequest(): void;
  onRateLimited(): void;
}

/**
 * Lets embed calls through, at most `limit` at a time (shared by every run of one indexer), with
 * additive increase and multiplicative decrease of `limit` on 429s: a 429 halves it (down to 1) and
 * pauses new requests for the Retry-After (else a backoff), a run of successes grows it one step.
 */
export class AdaptiveLimiter {
  limit: number;
  private inFlight = 0;
  private pausedUntil = 0;
  /** Bumped on every decrease, so the 429s of requests sent together count as one signal. */
  private epoch = 0;
  private successes = 0;
  private readonly wakers = new Set<() => void>();

  constructor(
    readonly max: number,
    private readonly policy: RateLimitPolicy,
  ) {
    this.limit = max;
  }

  /**
   * Embeds `texts` once a slot is free, retrying after 429s. `requestSignal` cancels the request
   * itself; `waitSignal` also stops waiting for a slot (a failed run sends nothing new).
   */
  async run(
    texts: string[],
    embed: EmbedFunction,
    requestSignal: AbortSignal | undefined,
    waitSignal: AbortSignal,
    hooks: LimiterHooks,
  ): Promise<Float32Array[]> {
    for (let attempt = 0; ; attempt++) {
      await this.acquire(waitSignal);
      const epoch = this.epoch;
      let vectors: Float32Array[];
      try {
        if (requestSignal?.aborted) throw indexingCancelled();
        hooks.onRequest();
        vectors = await embed(texts, requestSignal);
      } catch (error) {
        this.release();
        if (!this.worthRetrying(error, attempt)) throw error;
        hooks.onRateLimited();
        this.slowDown(epoch, error.retryAfterMs ?? backoffDelay(attempt, this.policy));
        continue;
      }
      this.release();
      this.speedUp();
      if (vectors.length !== texts.length)
        throw new ServiceError('protocol', `The embeddings call returned ${vectors.length} vectors for ${texts.length} texts.`);
      return vectors;
    }
  }

  /** Only a 429 is waited out, and only while the retries last and its Retry-After is bearable. */
  private worthRetrying(error: unknown, attempt: number): error is ServiceError {
    if (!(error instanceof ServiceError) || error.kind !== 'rateLimit' || attempt >= this.policy.maxRetries) return false;
    return error.retryAfterMs === undefined || error.retryAfterMs <= this.policy.maxRetryAfterMs;
  }

  private async acquire(signal: AbortSignal): Promise<void> {
    for (;;) {
      if (signal.aborted) throw indexingCancelled();
      const pause = this.pausedUntil - Date.now();
      if (pause > 0) {
        await sleep(pause, signal);
        continue;
      }
      if (this.inFlight < this.limit) {
        this.inFlight += 1;
        return;
      }
      await this.nextChange(signal);
    }
  }

  private release(): void {
    this.inFlight -= 1;
    this.wake();
  }

  private slowDown(epoch: number, waitMs: number): void {
    if (epoch === this.epoch) {
      this.limit = Math.max(1, Math.floor(this.limit / 2));
      this.epoch += 1;
    }
    this.successes = 0;
    this.pausedUntil = Math.max(this.pausedUntil, Date.now() + waitMs);
  }

  private speedUp(): void {
    this.successes += 1;
    if (this.limit < this.max && this.successes >= this.limit * 2) {
      this.limit += 1;
      this.successes = 0;
      this.wake();
    }
  }

  private wake(): void {
    const wakers = [...this.wakers];
    this.wakers.clear();
    for (const wake of wakers) wake();
  }

  /** Resolves when a slot may have come free (a release or a raised limit). */
  private nextChange(signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const done = () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        this.wakers.delete(done);
        reject(indexingCancelled());
      };
      this.wakers.add(done);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}
