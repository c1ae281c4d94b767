import * as assert from 'node:assert/strict';
import { collectReply, type ChatRequest } from '../../../../src/core';
import { useEmulator } from '../../support/fixture';

const ask: ChatRequest = { model: 'GigaChat-3-Ultra', messages: [{ role: 'user', content: 'Where is order A-1024?' }] };
const call = { name: 'get_order_status', arguments: { order_id: 'A-1024' } };
const sources = { '1': { url: 'https://docs.python.org/3/whatsnew/', title: 'What’s New' } };

/** A v2 stream's text: each event's name and data, as the service writes them. */
function sse(events: [string, object][]): string {
  return events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join('');
}

describe('v2 replies that carry the call, the sources or the finish reason on the message', () => {
  const t = useEmulator({ streamDelayMs: 0 });
  const serve = (body: string, contentType: string) => t.emulator.inject({ kind: 'body', body, contentType }, { endpoint: 'chat' });

  it('a whole reply: the message’s function call and finish reason are the reply’s', async () => {
    const body = {
      model: 'GigaChat-3-Ultra:32.3.18.5',
      messages: [{ role: 'assistant', tool_state_id: 'state-1', content: [], function_call: call, finish_reason: 'function_call' }],
    };
    serve(JSON.stringify(body), 'application/json');
    const { choices } = await t.client.chat(ask);
    assert.deepEqual(choices[0].message.function_call, call);
    assert.equal(choices[0].finish_reason, 'function_call');
    assert.equal(choices[0].message.functions_state_id, 'state-1');
  });

  it('a stream: the call, then the sources and the finish reason on the done event’s message', async () => {
    serve(
      sse([
        ['response.message.delta', { messages: [{ role: 'assistant', content: [{ text: 'Python 3.15 is out [sources=[1]].' }] }] }],
        ['response.message.delta', { messages: [{ role: 'assistant', function_call: call }] }],
        ['response.message.done', { messages: [{ role: 'assistant', inline_data: { sources }, finish_reason: 'function_call' }] }],
      ]),
      'text/event-stream',
    );
    const reply = await collectReply(t.client.chatStream(ask));
    assert.deepEqual(reply.functionCall, call);
    assert.deepEqual(reply.sources, sources);
    assert.equal(reply.finishReason, 'function_call');
  });

  it('the reply’s own finish reason wins over a message’s', async () => {
    const body = { messages: [{ role: 'assistant', content: [{ text: 'Done.' }], finish_reason: 'length' }], finish_reason: 'stop' };
    serve(JSON.stringify(body), 'application/json');
    assert.equal((await t.client.chat(ask)).choices[0].finish_reason, 'stop');
  });
});

describe('a v2 stream ends at response.message.done', () => {
  const t = useEmulator({ streamDelayMs: 0 });

  it('whole and at once, when the server leaves the connection open after its last event, which the client then closes', async () => {
    t.emulator.inject({ kind: 'openAfterDone' }, { endpoint: 'chat' });
    // A silence longer than the test may take: a client that waited for the connection to close would fail it.
    const client = t.clientWith({ timeoutMs: 60_000 });
    const reply = await collectReply(client.chatStream({ model: 'GigaChat-3-Ultra', messages: [{ role: 'user', content: 'Count from 1 to 3' }] }));
    assert.match(reply.content, /Count from 1 to 3/);
    assert.equal(reply.finishReason, 'stop');
    await t.emulator.waitForClosedStreams();
  });

  it('a delta after it is not part of the answer', async () => {
    const body = sse([
      ['response.message.delta', { messages: [{ role: 'assistant', content: [{ text: '1, 2, 3' }] }] }],
      ['response.message.done', { finish_reason: 'stop' }],
      ['response.message.delta', { messages: [{ role: 'assistant', content: [{ text: ', 4' }] }] }],
    ]);
    t.emulator.inject({ kind: 'body', body, contentType: 'text/event-stream' }, { endpoint: 'chat' });
    assert.equal((await collectReply(t.client.chatStream(ask))).content, '1, 2, 3');
  });
});
