import * as assert from 'node:assert/strict';
import { BODY_LIMITS, redactSecrets } from '../../../../src/core';
import { rejectsWith, useEmulator } from '../../support/fixture';

const PICTURE_ID = '3727db23-91a3-44fa-a6b7-9f0a311d3e9e';
const MiB = 1024 * 1024;
/** A token as the service issues them (a JWE: five base64url parts, the first a JSON header). */
const TOKEN = 'eyJjdHkiOiJqd3QiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIn0.c2VjcmV0LWtleS1wYXJ0.aXY.Y2lwaGVydGV4dA.dGFn';

describe('ServiceClient against the emulator: answers that are too large', () => {
  const t = useEmulator({ streamDelayMs: 0 });

  it('refuses a picture that goes on past the 15 MiB limit, without reading on', async () => {
    t.emulator.inject({ kind: 'endlessBody', contentType: 'image/jpeg' }, { endpoint: 'files' });
    const error = await rejectsWith(t.client.fileContent(PICTURE_ID), 'protocol');
    assert.equal(error.code, 'PICTURE_TOO_LARGE');
    assert.equal(error.limitBytes, 15 * MiB);
    assert.ok(error.requestId, 'the log needs the request id');
  });

  it('refuses a picture whose declared size is over the limit before reading any of it', async () => {
    t.emulator.inject({ kind: 'endlessBody', contentType: 'image/jpeg', declaredLength: 300 * MiB }, { endpoint: 'files' });
    const error = await rejectsWith(t.client.fileContent(PICTURE_ID), 'protocol');
    assert.equal(error.code, 'PICTURE_TOO_LARGE');
  });

  it('refuses a JSON answer past its limit, naming the limit', async () => {
    t.emulator.inject({ kind: 'endlessBody', prefix: '{"object":"list","data":[{"id":"' }, { endpoint: 'models' });
    const error = await rejectsWith(t.client.models(), 'protocol');
    assert.equal(error.code, 'RESPONSE_TOO_LARGE');
    assert.equal(error.limitBytes, BODY_LIMITS.json.bytes);
    assert.match(error.message, /16 MiB/);
  });

  it('reads only the start of an error body that never ends, and still reports the status', async () => {
    t.emulator.inject({ kind: 'endlessBody', status: 403, contentType: 'text/html', prefix: '<h1>Access denied by the proxy</h1>' }, { endpoint: 'models' });
    const error = await rejectsWith(t.client.models(), 'forbidden');
    assert.equal(error.status, 403);
    assert.match(error.message, /Access denied by the proxy/);
    assert.ok(error.message.length < 500, `the message is ${error.message.length} characters long`);
  });

  it('refuses a streamed reply whose line never ends, as EVENT_TOO_LARGE', async () => {
    t.emulator.inject({ kind: 'endlessBody', prefix: 'data: {"choices":[{"delta":{"content":"' }, { endpoint: 'chat' });
    const stream = t.client.chatStream({ model: 'GigaChat', messages: [{ role: 'user', content: 'Привет' }] });
    const error = await rejectsWith(
      (async () => {
        for await (const _ of stream);
      })(),
      'protocol',
    );
    assert.equal(error.code, 'EVENT_TOO_LARGE');
  });
});

describe('ServiceClient against the emulator: token answers are never quoted', () => {
  const t = useEmulator();
  const expiresAt = () => Date.now() + 30 * 60_000;

  it('accepts a token answer that starts with a byte-order mark', async () => {
    t.emulator.inject({ kind: 'body', body: `\uFEFF{"access_token":"${TOKEN}","expires_at":${expiresAt()}}` }, { endpoint: 'oauth' });
    const { expiresAtMs } = await t.clientWith().authorize();
    assert.ok(expiresAtMs > Date.now());
  });

  it('reports a token answer with trailing bytes as unreadable without quoting the token', async () => {
    t.emulator.inject(
      { kind: 'body', body: `{"access_token":"${TOKEN}","expires_at":${expiresAt()}}\n<!-- proxy -->` },
      { endpoint: 'oauth', times: Infinity },
    );
    const error = await rejectsWith(t.clientWith({ maxRetries: 0 }).authorize(), 'protocol');
    assert.match(error.message, /invalid JSON/);
    assert.ok(!error.message.includes(TOKEN.slice(0, 24)), error.message);
  });

  it('masks a token that an error answer carries, in its message and in its excerpt', async () => {
    t.emulator.inject({ kind: 'body', status: 401, body: `{"code":4,"message":"key refused; last token ${TOKEN}"}` }, { endpoint: 'oauth' });
    const fromMessage = await rejectsWith(t.clientWith({ maxRetries: 0 }).authorize(), 'auth');
    assert.ok(!fromMessage.message.includes(TOKEN.slice(0, 24)), fromMessage.message);
    t.emulator.inject(
      { kind: 'body', status: 401, contentType: 'text/plain', body: `denied {"access_token": "opaque-${TOKEN.slice(40)}"}` },
      { endpoint: 'oauth' },
    );
    const fromExcerpt = await rejectsWith(t.clientWith({ maxRetries: 0 }).authorize(), 'auth');
    assert.ok(!fromExcerpt.message.includes('opaque-'), fromExcerpt.message);
    assert.match(fromExcerpt.message, /denied/);
  });
});

describe('redactSecrets', () => {
  it('masks token fields, JSON web tokens and authorization values, and leaves the rest', () => {
    const text = `{"access_token":"abc\\"def","expires_at":1,"refreshToken": "r1"} Bearer ${TOKEN} Basic dXNlcjpwYXNz ok ${TOKEN}`;
    const masked = redactSecrets(text);
    for (const secret of ['abc', 'r1', TOKEN.slice(0, 20), 'dXNlcjpwYXNz']) assert.ok(!masked.includes(secret), `${secret} in ${masked}`);
    assert.match(masked, /"expires_at":1/);
    assert.match(masked, / ok /);
  });

  it('masks a token field cut off by an excerpt', () => {
    assert.equal(redactSecrets('{"access_token":"eyJhbGciOiJSUzI1'), '{"access_token":"[redacted]');
  });
});
