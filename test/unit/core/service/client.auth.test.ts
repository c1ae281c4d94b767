import * as assert from 'node:assert/strict';
import { hello, rejectsWith, useEmulator } from '../../support/fixture';

describe('ServiceClient against the emulator: authorization', () => {
  const t = useEmulator();

  it('exchanges the key exactly as documented: Basic key, fresh UUID v4 RqUID, form-encoded scope', async () => {
    const client = t.clientWith();
    await client.models();
    await client.authorize();
    const exchanges = t.emulator.requests.filter((r) => r.endpoint === 'oauth');
    assert.equal(exchanges.length, 2);
    for (const request of exchanges) {
      assert.equal(request.headers.authorization, `Basic ${t.emulator.authorizationKey}`);
      assert.match(String(request.headers.rquid), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.equal(request.headers['content-type'], 'application/x-www-form-urlencoded');
      assert.equal(request.headers.accept, 'application/json');
      assert.equal(request.body, 'scope=GIGACHAT_API_PERS');
    }
    assert.notEqual(exchanges[0].headers.rquid, exchanges[1].headers.rquid);
  });

  it('50 concurrent calls with no token make exactly one exchange', async () => {
    const client = t.clientWith();
    const results = await Promise.all(Array.from({ length: 50 }, () => client.models()));
    assert.equal(results.length, 50);
    assert.equal(t.emulator.count('oauth'), 1);
    assert.equal(t.emulator.count('models'), 50);
  });

  it('reuses the token across calls', async () => {
    const client = t.clientWith();
    await client.chat(hello);
    await client.chat(hello);
    await client.models();
    assert.equal(t.emulator.count('oauth'), 1);
  });

  it('survives a token that expires mid-session: one refresh, one retry, no visible error', async () => {
    const client = t.clientWith();
    await client.chat(hello);
    t.emulator.expireAllTokens();
    const completion = await client.chat(hello);
    assert.ok(completion.choices[0].message.content.length > 0);
    assert.equal(t.emulator.count('oauth'), 2);
    assert.equal(t.emulator.count('chat'), 3); // the refused call, and its retry
  });

  it('a token host that keeps failing is asked as many times as the retry policy allows, not that squared', async () => {
    const client = t.clientWith({ maxRetries: 3 });
    t.emulator.inject({ kind: 'status', status: 503, message: 'Service Unavailable' }, { endpoint: 'oauth', times: Infinity });
    await rejectsWith(client.models(), 'server');
    assert.equal(t.emulator.count('oauth'), 4, 'the first try and 3 retries');
    assert.equal(t.emulator.count('models'), 0);
  });

  it('a rejected key is a clear auth error that names the key, after a single exchange (no loop)', async () => {
    const client = t.clientWith({ authorizationKey: 'd3Jvbmcta2V5OndpdGgtc2VjcmV0' });
    const error = await rejectsWith(client.chat(hello), 'auth');
    assert.match(error.message, /authorization key was rejected/);
    assert.ok(!error.message.includes('d3Jvbmcta2V5OndpdGgtc2VjcmV0'), 'the key must not appear in the message');
    assert.ok(error.requestId, 'the request id is kept');
    assert.equal(t.emulator.count('oauth'), 1);
    assert.equal(t.emulator.count('chat'), 0);
  });

  it('a key for another scope is an auth error that names the scope', async () => {
    const client = t.clientWith({ scope: 'NOT_A_SCOPE' });
    const error = await rejectsWith(client.models(), 'auth');
    assert.match(error.message, /NOT_A_SCOPE/);
  });

  it('no key at all is an auth error without any request', async () => {
    const client = t.clientWith({ authorizationKey: async () => undefined });
    const error = await rejectsWith(client.models(), 'auth');
    assert.equal(error.code, 'NO_KEY');
    assert.equal(t.emulator.requests.length, 0);
  });

  it('a model host that keeps refusing fresh tokens gives an auth error after one retry, not a loop', async () => {
    const client = t.clientWith();
    t.emulator.inject({ kind: 'status', status: 401, message: 'Unauthorized' }, { endpoint: 'models', times: Infinity });
    await rejectsWith(client.models(), 'auth');
    assert.equal(t.emulator.count('models'), 2);
    assert.ok(t.emulator.count('oauth') <= 2);
  });

  it('reads the key lazily from its source and picks up a new key after resetToken', async () => {
    let key = t.emulator.authorizationKey;
    const client = t.clientWith({ authorizationKey: async () => key });
    await client.models();
    key = 'bm90OnRoZS1rZXk=';
    client.resetToken();
    await rejectsWith(client.models(), 'auth');
  });
});
