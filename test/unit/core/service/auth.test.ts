import * as assert from 'node:assert/strict';
import { TokenManager, basicCredentials, normalizeExpiry, type AccessToken } from '../../../../src/core/service/auth';
import { ServiceError } from '../../../../src/core';

/** A token exchange under the test's control: each call waits until the test settles it. */
function controlledExchange() {
  const calls: { resolve: (t: AccessToken) => void; reject: (e: Error) => void }[] = [];
  const exchange = () => new Promise<AccessToken>((resolve, reject) => calls.push({ resolve, reject }));
  return { calls, exchange };
}

describe('TokenManager', () => {
  it('runs one exchange however many callers wait, and shares its token', async () => {
    const { calls, exchange } = controlledExchange();
    const tokens = new TokenManager(exchange, () => 0);
    const waiting = Array.from({ length: 50 }, () => tokens.getToken());
    assert.equal(calls.length, 1);
    calls[0].resolve({ token: 't1', expiresAtMs: 30 * 60_000 });
    assert.deepEqual(new Set(await Promise.all(waiting)), new Set(['t1']));
    assert.equal(await tokens.getToken(), 't1');
    assert.equal(calls.length, 1);
  });

  it('refreshes about a minute before expiry, not after', async () => {
    let now = 0;
    const { calls, exchange } = controlledExchange();
    const tokens = new TokenManager(exchange, () => now);
    const first = tokens.getToken();
    calls[0].resolve({ token: 't1', expiresAtMs: 30 * 60_000 });
    assert.equal(await first, 't1');
    now = 28 * 60_000;
    assert.equal(await tokens.getToken(), 't1');
    now = 29 * 60_000 + 1;
    const second = tokens.getToken();
    assert.equal(calls.length, 2);
    calls[1].resolve({ token: 't2', expiresAtMs: 59 * 60_000 });
    assert.equal(await second, 't2');
  });

  it('scales the margin down for short-lived tokens instead of refreshing on every call', async () => {
    let now = 0;
    const { calls, exchange } = controlledExchange();
    const tokens = new TokenManager(exchange, () => now);
    const first = tokens.getToken();
    calls[0].resolve({ token: 't1', expiresAtMs: 3_000 });
    await first;
    now = 2_500;
    assert.equal(await tokens.getToken(), 't1');
    assert.equal(calls.length, 1);
  });

  it('keeps using a token when this machine’s clock runs hours ahead of the service’s', async () => {
    const serviceNow = 1_700_000_000_000;
    let now = serviceNow + 3 * 60 * 60_000; // a time zone's worth ahead: every fresh token looks expired
    const { calls, exchange } = controlledExchange();
    const tokens = new TokenManager(exchange, () => now);
    const first = tokens.getToken();
    calls[0].resolve({ token: 't1', expiresAtMs: serviceNow + 30 * 60_000 });
    assert.equal(await first, 't1');
    for (let i = 0; i < 5; i++) {
      now += 60_000;
      assert.equal(await tokens.getToken(), 't1');
    }
    assert.equal(calls.length, 1, 'one exchange for all the calls');
    now += 25 * 60_000; // about when the service's token runs out
    void tokens.getToken();
    assert.equal(calls.length, 2, 'and a new one before the token’s lifetime is over');
  });

  it('lets a failed exchange fail its callers and tries again on the next call', async () => {
    const { calls, exchange } = controlledExchange();
    const tokens = new TokenManager(exchange, () => 0);
    const waiting = [tokens.getToken(), tokens.getToken()];
    calls[0].reject(new ServiceError('auth', 'rejected'));
    for (const result of waiting) await assert.rejects(result, /rejected/);
    const retry = tokens.getToken();
    assert.equal(calls.length, 2);
    calls[1].resolve({ token: 't2', expiresAtMs: 60 * 60_000 });
    assert.equal(await retry, 't2');
  });

  it('invalidates only the token that was refused, and drops an exchange started before a key change', async () => {
    const { calls, exchange } = controlledExchange();
    const tokens = new TokenManager(exchange, () => 0);
    const first = tokens.getToken();
    calls[0].resolve({ token: 't1', expiresAtMs: 60 * 60_000 });
    await first;
    tokens.invalidate('stale-token');
    assert.equal(await tokens.getToken(), 't1');

    tokens.invalidate(); // the key changed
    const afterChange = tokens.getToken();
    tokens.invalidate(); // and changed again while that exchange was running
    const latest = tokens.getToken();
    calls[1].resolve({ token: 'old-key-token', expiresAtMs: 60 * 60_000 });
    calls[2].resolve({ token: 'new-key-token', expiresAtMs: 60 * 60_000 });
    assert.equal(await afterChange, 'old-key-token');
    assert.equal(await latest, 'new-key-token');
    assert.equal(await tokens.getToken(), 'new-key-token');
  });

  it('a renewal asked for while an exchange runs joins it instead of dropping it, and its token is kept', async () => {
    const { calls, exchange } = controlledExchange();
    const tokens = new TokenManager(exchange, () => 0);
    const request = tokens.getToken();
    const check = tokens.renew(); // Check Connection's token step, while a chat waits for its token
    assert.equal(calls.length, 1, 'one exchange for both');
    calls[0].resolve({ token: 't1', expiresAtMs: 60 * 60_000 });
    assert.equal(await request, 't1');
    assert.equal((await check).token, 't1');
    assert.equal(await tokens.getToken(), 't1', 'the token was cached');
    assert.equal(calls.length, 1);

    const fresh = tokens.renew(); // with a cached token and nothing in flight: a new exchange
    assert.equal(calls.length, 2);
    calls[1].resolve({ token: 't2', expiresAtMs: 60 * 60_000 });
    assert.equal((await fresh).token, 't2');
    assert.equal(await tokens.getToken(), 't2');
  });

  it('lets one caller give up without failing the others', async () => {
    const { calls, exchange } = controlledExchange();
    const tokens = new TokenManager(exchange, () => 0);
    const controller = new AbortController();
    const impatient = tokens.getToken(controller.signal);
    const patient = tokens.getToken();
    controller.abort();
    await assert.rejects(impatient, (e: unknown) => e instanceof ServiceError && e.kind === 'cancelled');
    calls[0].resolve({ token: 't1', expiresAtMs: 60 * 60_000 });
    assert.equal(await patient, 't1');
  });
});

describe('key and expiry formats', () => {
  it('sends the console key as is, and encodes a pasted client_id:secret pair', () => {
    assert.equal(basicCredentials('  ZGVtbzpzZWNyZXQ=\n'), 'ZGVtbzpzZWNyZXQ=');
    assert.equal(basicCredentials('Basic ZGVtbzpzZWNyZXQ='), 'ZGVtbzpzZWNyZXQ=');
    assert.equal(basicCredentials('demo:secret'), 'ZGVtbzpzZWNyZXQ=');
  });

  it('reads expires_at in milliseconds, and below 1e12 as seconds', () => {
    assert.equal(normalizeExpiry(1706026848841), 1706026848841);
    assert.equal(normalizeExpiry(1706026848), 1706026848000);
  });
});
