import type { ServiceError } from '../../core';
import { countMessage } from '../countMessage';

/**
 * How long the service asked to wait (its Retry-After), when that is what ended the request: the
 * client waits out short ones by itself, so one that reaches the user is too long to wait unseen.
 */
export function askedWait(error: ServiceError): number | undefined {
  return (error.kind === 'rateLimit' || error.kind === 'server') && error.retryAfterMs !== undefined && error.retryAfterMs >= 1000
    ? error.retryAfterMs
    : undefined;
}

/** `45 seconds`, `3 minutes` (never "1 …": a wait this short is not shown). */
export function waitText(ms: number): string {
  return ms < 120_000 ? countMessage('{0|# second|# seconds}', Math.ceil(ms / 1000)) : countMessage('{0|# minute|# minutes}', Math.ceil(ms / 60_000));
}
