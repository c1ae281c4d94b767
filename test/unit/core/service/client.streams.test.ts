import * as assert from 'node:assert/strict';
import { StreamScheduler } from '../../../../src/core/streams/streamScheduler';
import { hello, rejectsWith, useEmulator } from '../../support/fixture';

const longQuestion = { model: 'GigaChat', messages: [{ role: 'user' as const, content: '[long] Explain the retry loop' }] };

describe('ServiceClient on an account of one stream (the emulator refuses a second with 429)', () => {
  const t = useEmulator({ streamsPerScope: { GIGACHAT_API_PERS: 1 } });

  it('answers a question asked during indexing in full, after the batch in flight, with no 429', async () => {
    const client = t.clientWith({ scheduler: new StreamScheduler({ streams: 1 }) });
    const texts = Array.from({ length: 5 }, (_, i) => `function step${i}() { return ${i}; }`);
    const batches = Array.from({ length: 6 }, () => client.embeddings(texts, { priority: 'background' }));
    const answer = await client.chat(hello);
    assert.ok(answer.choices[0].message.content.length > 0);
    await Promise.all(batches);
    assert.equal(t.emulator.refusedForStreams, 0, 'nothing beyond the account was sent');
    const order = t.emulator.requests.filter((r) => r.endpoint !== 'oauth').map((r) => r.endpoint);
    assert.ok(order.indexOf('chat') <= 1, `the question went after at most the one batch in flight: ${order.join(', ')}`);
  });

  it('learns the limit from a 429 met while another request was served, and shows no error', async () => {
    const scheduler = new StreamScheduler({ streams: 3 });
    const client = t.clientWith({ scheduler });
    await client.authorize(); // one token for the three
    t.emulator.setOptions({ latencyMs: 300 }); // each answer holds the stream a while: the three overlap
    const replies = await Promise.all([client.chat(hello), client.chat(hello), client.chat(hello)]).finally(() => t.emulator.setOptions({ latencyMs: 0 }));
    assert.equal(replies.length, 3);
    assert.equal(scheduler.budget.current, 1, 'cut to the one stream the account has');
    assert.ok(t.emulator.refusedForStreams >= 1);
  });

  it('frees the stream the moment a streamed answer is stopped: the next question starts at once', async () => {
    const scheduler = new StreamScheduler({ streams: 1 });
    const client = t.clientWith({ scheduler });
    const refusedBefore = t.emulator.refusedForStreams;
    const stop = new AbortController();
    const stream = client.chatStream(longQuestion, { signal: stop.signal });
    const first = await stream.next();
    assert.equal(first.done, false);
    let waited = false;
    const next = client.chat(hello, { onWait: (waiting) => (waited ||= waiting) });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(waited, true, 'the question waits for the answer being streamed');
    stop.abort();
    await rejectsWith(stream.next(), 'cancelled');
    const answer = await next;
    assert.ok(answer.choices[0].message.content.length > 0, 'answered, no error');
    // The service may see the connection close a moment after the client closed it (here, on a
    // loaded machine, hundreds of ms): the question then takes its turn again at once, quietly.
    assert.ok(t.emulator.refusedForStreams - refusedBefore <= 1);
  });

  it('reports a 429 with nothing of its own in flight at once: it is not the stream it just gave back', async () => {
    const client = t.clientWith({ scheduler: new StreamScheduler({ streams: 1 }), maxRetries: 0 });
    await client.chat(hello); // a stream served and closed just before
    t.emulator.inject({ kind: 'status', status: 429 }, { endpoint: 'chat', times: 1_000 });
    const started = Date.now();
    await rejectsWith(client.chat(hello), 'rateLimit').finally(() => t.emulator.clearFaults());
    const attempts = t.emulator.requests.filter((request) => request.endpoint === 'chat').length - 1;
    // Only the one stream of the answer before may still count at the service (a couple of seconds); then the refusal is told.
    assert.ok(Date.now() - started < 10_000 && attempts < 30, `${attempts} attempts in ${Date.now() - started} ms`);
  });

  it('skips a suggestion instead of queueing it behind a streamed answer', async () => {
    const client = t.clientWith({ scheduler: new StreamScheduler({ streams: 1 }) });
    const stream = client.chatStream(longQuestion);
    await stream.next();
    await rejectsWith(client.chat(hello, { priority: 'typing', maxWaitMs: 20, maxRetries: 0 }), 'cancelled');
    await stream.return(undefined);
  });
});
