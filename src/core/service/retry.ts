import { cancelled } from '../base/abortable';
import { ServiceError } from '../serviceError';
import type { Logger } from '../base/logger';
import { NOT_TLS_CODE } from '../network/transportErrors';

export interface RetryPolicy {
  /** Retries after the first attempt (0 = never retry). */
  maxRetries: number;
  /** Backoff before retry n is about baseDelayMs · 2ⁿ (with jitter), capped at maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A `Retry-After` longer than this is not waited out: the error goes to the user instead. */
  maxRetryAfterMs: number;
}

export const defaultRetryPolicy: RetryPolicy = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 30_000 };

/** Statuses that say "try again later"; 402/403/404/413/422 never get better by repeating. */
const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);

/**
 * Errors a retry loop has given up on. A loop around another (a request around the token exchange
 * it needs) does not repeat them: the inner one already did, and the retries would multiply.
 */
const givenUp = new WeakSet<ServiceError>();

/** Whether repeating the same request may succeed: overload, server failure, dropped connection. */
export function isRetryable(error: unknown): error is ServiceError {
  if (!(error instanceof ServiceError) || givenUp.has(error)) return false;
  if (error.status !== undefined) return RETRYABLE_STATUSES.has(error.status);
  // A server that does not speak TLS will not start to on the next try.
  return error.kind === 'network' && error.code !== NOT_TLS_CODE;
}

/**
 * Runs `attempt` until it succeeds, fails for good, or the retries run out. Only for requests that
 * are safe to repeat, and only before any of a response has been handed to the caller.
 */
export async function withRetries<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  policy: RetryPolicy,
  logger: Logger,
  signal?: AbortSignal,
  /** Narrower than `isRetryable` for a request that is not safe to repeat after every failure. */
  repeatable: (error: ServiceError) => boolean = () => true,
): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      const retryable = isRetryable(error) && repeatable(error);
      const tooLate = retryable && error.retryAfterMs !== undefined && error.retryAfterMs > policy.maxRetryAfterMs;
      if (!retryable || n >= policy.maxRetries || tooLate) {
        if (error instanceof ServiceError) givenUp.add(error);
        throw error;
      }
      const delay = error.retryAfterMs ?? backoffDelay(n, policy);
      logger.info(
        `Retrying after ${error.status ?? error.code ?? error.kind} in ${Math.round(delay)} ms ` +
          `(retry ${n + 1} of ${policy.maxRetries})${error.requestId ? `, request id ${error.requestId}` : ''}`,
      );
      await sleep(delay, signal);
    }
  }
}

/** Exponential backoff with "equal jitter": half fixed, half random, so clients spread out. */
export function backoffDelay(retry: number, policy: RetryPolicy, random = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return ceiling / 2 + random() * (ceiling / 2);
}

/** Waits, unless the caller aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled());
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }
    function onAbort() {
      clearTimeout(timer);
      reject(cancelled());
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
