import * as assert from 'node:assert/strict';
import { backoffDelay, defaultRetryPolicy, isRetryable, withRetries } from '../../../../src/core/service/retry';
import { parseRetryAfter } from '../../../../src/core/network/http';
import { ServiceError, type Logger } from '../../../../src/core';

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };
const fast = { ...defaultRetryPolicy, baseDelayMs: 1, maxDelayMs: 4 };

describe('retries', () => {
  it('retries 429 and 5xx and dropped connections, never 402/403/404/413/422', () => {
    for (const status of [429, 500, 502, 503, 504]) assert.ok(isRetryable(new ServiceError('server', '', { status })), String(status));
    for (const status of [400, 401, 402, 403, 404, 413, 422]) assert.ok(!isRetryable(new ServiceError('invalidRequest', '', { status })), String(status));
    assert.ok(isRetryable(new ServiceError('network', 'reset')));
    assert.ok(!isRetryable(new ServiceError('tls', 'unknown root')));
    assert.ok(!isRetryable(new ServiceError('cancelled', '')));
  });

  it('grows the backoff exponentially, with jitter, up to the cap', () => {
    const policy = { ...defaultRetryPolicy, baseDelayMs: 100, maxDelayMs: 1_000 };
    assert.equal(
      backoffDelay(0, policy, () => 0),
      50,
    );
    assert.equal(
      backoffDelay(0, policy, () => 1),
      100,
    );
    assert.equal(
      backoffDelay(2, policy, () => 1),
      400,
    );
    assert.equal(
      backoffDelay(10, policy, () => 1),
      1_000,
    );
    assert.equal(
      backoffDelay(10, policy, () => 0),
      500,
    );
  });

  it('stops after maxRetries and gives the last error', async () => {
    let attempts = 0;
    await assert.rejects(
      withRetries(
        async () => {
          attempts++;
          throw new ServiceError('server', 'down', { status: 503 });
        },
        fast,
        quiet,
      ),
      /down/,
    );
    assert.equal(attempts, fast.maxRetries + 1);
  });

  it('does not wait out a Retry-After longer than the policy allows', async () => {
    let attempts = 0;
    await assert.rejects(
      withRetries(
        async () => {
          attempts++;
          throw new ServiceError('rateLimit', 'slow down', { status: 429, retryAfterMs: 3_600_000 });
        },
        fast,
        quiet,
      ),
      (e: unknown) => e instanceof ServiceError && e.retryAfterMs === 3_600_000,
    );
    assert.equal(attempts, 1);
  });

  it('ends a backoff wait at once when the caller aborts', async () => {
    const controller = new AbortController();
    const slow = { ...fast, baseDelayMs: 60_000, maxDelayMs: 60_000 };
    const pending = withRetries(
      async () => {
        throw new ServiceError('server', 'down', { status: 500 });
      },
      slow,
      quiet,
      controller.signal,
    );
    setTimeout(() => controller.abort(), 10);
    await assert.rejects(pending, (e: unknown) => e instanceof ServiceError && e.kind === 'cancelled');
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    assert.equal(parseRetryAfter('2'), 2_000);
    assert.equal(parseRetryAfter('Thu, 01 Jan 1970 00:00:10 GMT', 4_000), 6_000);
    assert.equal(parseRetryAfter('soon'), undefined);
    assert.equal(parseRetryAfter(undefined), undefined);
  });
});
