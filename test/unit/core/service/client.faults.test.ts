import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectReply, type ChatReply, applyChunk } from '../../../../src/core';
import { hello, rejectsWith, useEmulator } from '../../support/fixture';

/** Reads a stream until it fails, returning what arrived and the error. */
async function readUntilFailure(stream: AsyncIterable<Parameters<typeof applyChunk>[1]>) {
  let reply: ChatReply = { content: '' };
  try {
    for await (const chunk of stream) reply = applyChunk(reply, chunk);
  } catch (error) {
    return { reply, error };
  }
  return { reply, error: undefined };
}

describe('ServiceClient against the emulator: faults', () => {
  const t = useEmulator({ streamDelayMs: 0 });

  for (const status of [429, 500, 502, 503, 504]) {
    it(`retries ${status} and then succeeds`, async () => {
      t.emulator.inject({ kind: 'status', status }, { endpoint: 'chat', times: 2 });
      const completion = await t.client.chat(hello);
      assert.ok(completion.choices[0].message.content);
      assert.equal(t.emulator.count('chat'), 3);
    });
  }

  it('honours Retry-After before retrying a 429', async () => {
    t.emulator.inject({ kind: 'status', status: 429, retryAfterSeconds: 1 }, { endpoint: 'models' });
    const started = Date.now();
    await t.client.models();
    assert.ok(Date.now() - started >= 950, `waited only ${Date.now() - started} ms`);
    assert.equal(t.emulator.count('models'), 2);
  });

  it('gives up after maxRetries with a rateLimit error carrying the request id', async () => {
    t.emulator.inject({ kind: 'status', status: 429 }, { endpoint: 'chat', times: Infinity });
    const error = await rejectsWith(t.clientWith({ maxRetries: 2 }).chat(hello), 'rateLimit');
    assert.ok(error.requestId);
    assert.equal(t.emulator.count('chat'), 3);
  });

  for (const [status, kind] of [
    [402, 'payment'],
    [403, 'forbidden'],
    [404, 'notFound'],
    [413, 'tooLarge'],
    [422, 'invalidRequest'],
  ] as const) {
    it(`never retries ${status} (${kind})`, async () => {
      // A 404 that names the model: a bare 404 on the current contract means the host lacks it (see client.contracts).
      t.emulator.inject({ kind: 'status', status, message: status === 404 ? 'No such model' : undefined }, { endpoint: 'chat', times: Infinity });
      const error = await rejectsWith(t.client.chat(hello), kind);
      assert.equal(error.status, status);
      assert.ok(error.requestId);
      assert.equal(t.emulator.count('chat'), 1);
    });
  }

  it('retries a connection reset before the response', async () => {
    t.emulator.inject({ kind: 'resetBeforeResponse' }, { endpoint: 'models' });
    assert.ok((await t.client.models()).length > 0);
    assert.equal(t.emulator.count('models'), 2);
  });

  it('a whole-answer chat cut off mid-body is not asked again: it was generated, and paid for', async () => {
    t.emulator.inject({ kind: 'resetMidStream', afterEvents: 1 }, { endpoint: 'chat' });
    await rejectsWith(t.client.chat(hello), 'network');
    assert.equal(t.emulator.count('chat'), 1);
  });

  it('a reset mid-stream is a network error after the text already received', async () => {
    const whole = (await t.client.chat(hello)).choices[0].message.content;
    t.emulator.inject({ kind: 'resetMidStream', afterEvents: 3 }, { endpoint: 'chat' });
    const { reply, error } = await readUntilFailure(t.client.chatStream(hello));
    assert.equal((error as { kind?: string })?.kind, 'network');
    assert.ok(reply.content.length > 0 && whole.startsWith(reply.content), 'the partial text is a prefix of the reply');
  });

  it('a truncated stream (no [DONE]) is a protocol error that keeps the text', async () => {
    t.emulator.inject({ kind: 'truncatedStream' }, { endpoint: 'chat' });
    const { reply, error } = await readUntilFailure(t.client.chatStream(hello));
    assert.equal((error as { kind?: string })?.kind, 'protocol');
    assert.ok(reply.content.length > 0);
  });

  it('malformed JSON in a stream is a protocol error with the request id', async () => {
    t.emulator.inject({ kind: 'malformedJson' }, { endpoint: 'chat' });
    const { error } = await readUntilFailure(t.client.chatStream(hello));
    assert.equal((error as { kind?: string })?.kind, 'protocol');
    assert.ok((error as { requestId?: string }).requestId);
  });

  it('malformed JSON in a whole reply is a protocol error that says so', async () => {
    t.emulator.inject({ kind: 'malformedJson' }, { endpoint: 'models' });
    const error = await rejectsWith(t.client.models(), 'protocol');
    assert.match(error.message, /invalid JSON/);
  });

  it('a body of the wrong shape is a protocol error naming what is wrong', async () => {
    t.emulator.inject({ kind: 'wrongShape' }, { endpoint: 'chat' });
    const error = await rejectsWith(t.client.chat(hello), 'protocol');
    assert.match(error.message, /unexpected shape \(.+\)/);
  });

  it('a stalled stream times out, keeping what arrived', async () => {
    t.emulator.inject({ kind: 'stall' }, { endpoint: 'chat' });
    const { error } = await readUntilFailure(t.clientWith({ timeoutMs: 300 }).chatStream(hello));
    assert.equal((error as { kind?: string })?.kind, 'timeout');
  });

  it('a slow first byte beyond the timeout is a timeout; within it, fine', async () => {
    // undici checks header timeouts on a coarse (about one second) clock: leave it room.
    t.emulator.inject({ kind: 'slowFirstByte', ms: 4_000 }, { endpoint: 'models' });
    await rejectsWith(t.clientWith({ timeoutMs: 300, maxRetries: 0 }).models(), 'timeout');
    t.emulator.inject({ kind: 'slowFirstByte', ms: 50 }, { endpoint: 'models' });
    assert.ok((await t.clientWith({ timeoutMs: 2_000 }).models()).length > 0);
  });

  it('Stop works on a stalled server: abort ends the wait at once', async () => {
    t.emulator.inject({ kind: 'stall' }, { endpoint: 'chat' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const { error } = await readUntilFailure(t.client.chatStream(hello, { signal: controller.signal }));
    assert.equal((error as { kind?: string })?.kind, 'cancelled');
    await t.emulator.waitForClosedStreams();
  });

  it('keeps working after every fault above', async () => {
    const reply = await collectReply(t.client.chatStream(hello));
    assert.equal(reply.finishReason, 'stop');
  });
});

describe('ServiceClient against the emulator: certificates', () => {
  const t = useEmulator();

  it('a server certificate from an unknown CA fails with a tls error that says what to do', async () => {
    const client = t.clientWith({ ca: [] });
    const error = await rejectsWith(client.models(), 'tls');
    assert.match(error.code ?? '', /SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|UNABLE_TO_VERIFY_LEAF_SIGNATURE/);
    assert.match(error.message, /Russian Trusted Root CA/);
    assert.match(error.message, /Never switch verification off/);
    assert.equal(t.emulator.count('models'), 0);
  });

  it('trusting the CA works, and the default roots stay trusted alongside it', async () => {
    assert.ok((await t.client.models()).length > 0);
  });
});

describe('ServiceClient: addresses that are not the service', () => {
  const t = useEmulator();
  /** A plain-http server (no TLS) that counts the connections made to it. */
  let plain: http.Server;
  let plainConnections = 0;
  let plainOrigin = '';
  before(async () => {
    plain = http.createServer((_req, res) => res.end('plain http'));
    plain.on('connection', () => plainConnections++);
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    plainOrigin = `127.0.0.1:${(plain.address() as AddressInfo).port}`;
  });
  beforeEach(() => (plainConnections = 0));
  after(() => new Promise((resolve) => plain.close(resolve)));

  it('an address typed without https:// fails at once, naming the address (the host names its setting), with nothing sent', async () => {
    const schemeless = t.emulator.baseUrl.replace('https://', '');
    const error = await rejectsWith(t.clientWith({ baseUrl: schemeless }).models(), 'invalidRequest');
    assert.equal(error.code, 'INVALID_BASE_URL');
    assert.match(error.message, /model host address/);
    assert.equal(t.emulator.count('oauth') + t.emulator.count('models'), 0);
  });

  it('never sends the key to a plain http:// token address', async () => {
    const error = await rejectsWith(t.clientWith({ authUrl: `http://${plainOrigin}/api/v2/oauth` }).authorize(), 'invalidRequest');
    assert.equal(error.code, 'INVALID_AUTH_URL');
    assert.match(error.message, /unencrypted/);
    assert.equal(plainConnections, 0);
  });

  it('a port that speaks plain http is a network error about the port or scheme, not a certificate one, and is not retried', async () => {
    const error = await rejectsWith(t.clientWith({ authUrl: `https://${plainOrigin}/api/v2/oauth` }).authorize(), 'network');
    assert.equal(error.code, 'ERR_SSL_WRONG_VERSION_NUMBER');
    assert.match(error.message, /did not answer with TLS/);
    assert.equal(plainConnections, 1, 'a server that does not speak TLS is asked once');
  });
});
