import * as assert from 'node:assert/strict';
import { CONNECTION_LOST, NOT_A_STREAM, STREAM_CUT, TOKEN_EXPIRED, collectReply, type ChatRequest } from '../../../../src/core';
import { rejectsWith, useEmulator } from '../../support/fixture';

const ask: ChatRequest = { model: 'GigaChat-3-Ultra', messages: [{ role: 'user', content: 'Count from 1 to 3' }] };

describe('failures of a streamed answer, each called what it is', () => {
  const t = useEmulator({ streamDelayMs: 0 });
  const serve = (body: string, contentType: string) => t.emulator.inject({ kind: 'body', body, contentType }, { endpoint: 'chat' });

  it('a whole JSON answer to a streamed request says what came, not that the stream ended early', async () => {
    serve('{"choices":[{"message":{"role":"assistant","content":"1, 2, 3"}}]}', 'application/json; charset=utf-8');
    const error = await rejectsWith(collectReply(t.client.chatStream(ask)), 'protocol');
    assert.equal(error.code, NOT_A_STREAM);
    assert.match(error.message, /with application\/json instead of a stream of events: \{"choices"/);
    assert.ok(error.requestId);
  });

  it('a proxy’s page is quoted the same way', async () => {
    serve('<html><body>Proxy authentication portal</body></html>', 'text/html');
    const error = await rejectsWith(collectReply(t.client.chatStream(ask)), 'protocol');
    assert.equal(error.code, NOT_A_STREAM);
    assert.match(error.message, /text\/html .*Proxy authentication portal/);
  });

  it('the service’s own error body, under a 200, is the error of its status', async () => {
    serve('{"status":429,"message":"Too many requests"}', 'application/json');
    const error = await rejectsWith(collectReply(t.client.chatStream(ask)), 'rateLimit');
    assert.equal(error.serviceMessage, 'Too many requests');
  });

  it('a stream cut inside an event is cut off, not malformed JSON, after the text that came', async () => {
    const body =
      'event: response.message.delta\ndata: {"messages":[{"role":"assistant","content":[{"text":"1, 2"}]}]}\n\n' +
      'event: response.message.delta\ndata: {"messages":[{"role":"assistant","content":[{"te';
    serve(body, 'text/event-stream');
    let text = '';
    const error = await rejectsWith(
      (async () => {
        for await (const chunk of t.client.chatStream(ask)) text += chunk.choices[0]?.delta.content ?? '';
      })(),
      'protocol',
    );
    assert.equal(error.code, STREAM_CUT);
    assert.doesNotMatch(error.message, /malformed/);
    assert.equal(text, '1, 2');
  });

  it('a stream that stops between events is cut off too', async () => {
    t.emulator.inject({ kind: 'truncatedStream' }, { endpoint: 'chat' });
    assert.equal((await rejectsWith(collectReply(t.client.chatStream(ask)), 'protocol')).code, STREAM_CUT);
  });

  it('a connection reset mid-stream broke while the answer arrived: the service was reached', async () => {
    t.emulator.inject({ kind: 'resetMidStream', afterEvents: 2 }, { endpoint: 'chat' });
    const error = await rejectsWith(collectReply(t.client.chatStream(ask)), 'network');
    assert.equal(error.code, CONNECTION_LOST);
    assert.match(error.message, /broke while its answer was arriving/);
    assert.doesNotMatch(error.message, /Could not reach/);
  });

  it('a fresh token called expired is the token’s fault, not the key’s or the scope’s', async () => {
    t.emulator.inject({ kind: 'status', status: 401, message: 'Token has expired' }, { endpoint: 'chat', times: 2 });
    const error = await rejectsWith(t.client.chat(ask), 'auth');
    assert.equal(error.code, TOKEN_EXPIRED);
    assert.doesNotMatch(error.message, /Check the authorization key/);
    assert.equal(t.emulator.count('oauth'), 1, 'one fresh token was asked for, not a loop');
  });
});
