import * as assert from 'node:assert/strict';
import { findKeyScope, isScopeMismatch, type ServiceClient } from '../../../../src/core';
import { rejectsWith, useEmulator } from '../../support/fixture';

/** The scopes the emulator's token host was asked for, in order. */
function scopesAsked(t: ReturnType<typeof useEmulator>): string[] {
  return t.emulator.requests.filter((r) => r.endpoint === 'oauth').map((r) => new URLSearchParams(r.body).get('scope') ?? '');
}

/** Authorizes with a client of `scope`, as the host does: one client per scope tried. */
function authorizeWith(t: ReturnType<typeof useEmulator>, overrides: Parameters<ReturnType<typeof useEmulator>['clientWith']>[0] = {}) {
  return (scope: string) => {
    const client: ServiceClient = t.clientWith({ ...overrides, scope });
    return client.authorize();
  };
}

describe('finding the scope a key belongs to, against the emulator', () => {
  describe('a business key, prepaid (GIGACHAT_API_B2B)', () => {
    const t = useEmulator({ scopes: ['GIGACHAT_API_B2B'] });

    it('is refused as personal with the service\'s own "wrong scope" answer, which the client tells apart from a wrong key', async () => {
      const error = await rejectsWith(t.clientWith({ scope: 'GIGACHAT_API_PERS' }).authorize(), 'auth');
      assert.ok(isScopeMismatch(error), error.message);
      assert.equal(error.status, 400);
      assert.match(error.message, /does not belong to the scope GIGACHAT_API_PERS/);
    });

    it('is found after the personal scope in the settings is refused, without trying the third', async () => {
      assert.equal(await findKeyScope(authorizeWith(t), 'GIGACHAT_API_PERS'), 'GIGACHAT_API_B2B');
      assert.deepEqual(scopesAsked(t), ['GIGACHAT_API_PERS', 'GIGACHAT_API_B2B']);
    });

    it('takes one exchange when the settings already name its scope', async () => {
      assert.equal(await findKeyScope(authorizeWith(t), 'GIGACHAT_API_B2B'), 'GIGACHAT_API_B2B');
      assert.deepEqual(scopesAsked(t), ['GIGACHAT_API_B2B']);
    });

    it('is not looked for under other scopes when the key itself is wrong', async () => {
      const error = await rejectsWith(findKeyScope(authorizeWith(t, { authorizationKey: 'd3Jvbmcta2V5OndpdGgtc2VjcmV0' }), 'GIGACHAT_API_PERS'), 'auth');
      assert.equal(isScopeMismatch(error), false);
      assert.match(error.message, /rejected/);
      assert.deepEqual(scopesAsked(t), ['GIGACHAT_API_PERS']);
    });

    it('is not looked for under other scopes when the token host cannot be reached', async () => {
      t.emulator.inject({ kind: 'status', status: 503, message: 'Service Unavailable' }, { endpoint: 'oauth', times: Infinity });
      await rejectsWith(findKeyScope(authorizeWith(t, { maxRetries: 0 }), 'GIGACHAT_API_PERS'), 'server');
      assert.deepEqual(scopesAsked(t), ['GIGACHAT_API_PERS']);
    });
  });

  describe('a business key, postpaid (GIGACHAT_API_CORP)', () => {
    const t = useEmulator({ scopes: ['GIGACHAT_API_CORP'] });

    it('is found whichever scope the settings name', async () => {
      assert.equal(await findKeyScope(authorizeWith(t), 'GIGACHAT_API_PERS'), 'GIGACHAT_API_CORP');
      assert.deepEqual(scopesAsked(t), ['GIGACHAT_API_PERS', 'GIGACHAT_API_B2B', 'GIGACHAT_API_CORP']);
      t.emulator.resetCounts();
      assert.equal(await findKeyScope(authorizeWith(t), 'GIGACHAT_API_B2B'), 'GIGACHAT_API_CORP');
      assert.deepEqual(scopesAsked(t), ['GIGACHAT_API_B2B', 'GIGACHAT_API_PERS', 'GIGACHAT_API_CORP']);
    });
  });

  describe('a key the service gives no scope', () => {
    const t = useEmulator({ scopes: [] });

    it('is a scope mismatch that names the three scopes tried', async () => {
      const error = await rejectsWith(findKeyScope(authorizeWith(t), 'GIGACHAT_API_PERS'), 'auth');
      assert.ok(isScopeMismatch(error));
      assert.match(error.message, /GIGACHAT_API_PERS, GIGACHAT_API_B2B, GIGACHAT_API_CORP/);
      assert.equal(t.emulator.count('oauth'), 3);
    });
  });
});
