import * as assert from 'node:assert/strict';
import { StreamScheduler, type StreamLease, type StreamPriority } from '../../../../src/core/streams/streamScheduler';
import { StreamBudget, streamsOfScope } from '../../../../src/core/streams/streamBudget';
import { rejectsWith } from '../../support/fixture';

/** The order in which requests got their streams. */
function recorder(scheduler: StreamScheduler) {
  const granted: string[] = [];
  const leases = new Map<string, StreamLease>();
  return {
    granted,
    ask(name: string, priority: StreamPriority, extra: { maxWaitMs?: number; signal?: AbortSignal; onWait?: (waiting: boolean) => void } = {}) {
      return scheduler.acquire({ priority, ...extra }).then((lease) => {
        granted.push(name);
        leases.set(name, lease);
        return lease;
      });
    },
    release(name: string) {
      leases.get(name)!.release();
    },
  };
}

/** Lets every settled promise run its callbacks. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('StreamScheduler: one account, its streams by priority', () => {
  it('gives a stream at once while the budget allows, and makes the next wait for a release', async () => {
    const scheduler = new StreamScheduler({ streams: 2 });
    const r = recorder(scheduler);
    await r.ask('a', 'background');
    await r.ask('b', 'background');
    const third = r.ask('c', 'background');
    await settle();
    assert.deepEqual(r.granted, ['a', 'b']);
    r.release('a');
    await third;
    assert.deepEqual(r.granted, ['a', 'b', 'c']);
  });

  it('serves a question before suggestions and background work queued earlier, after only the request in flight', async () => {
    const scheduler = new StreamScheduler({ streams: 1 });
    const r = recorder(scheduler);
    await r.ask('batch 1', 'background');
    const queued = [r.ask('batch 2', 'background'), r.ask('batch 3', 'background'), r.ask('count', 'background')];
    const suggestion = r.ask('suggestion', 'typing', { maxWaitMs: 10_000 });
    const question = r.ask('question', 'now');
    await settle();
    assert.deepEqual(r.granted, ['batch 1'], 'nothing more than the budget');
    r.release('batch 1');
    await question;
    assert.deepEqual(r.granted, ['batch 1', 'question'], 'the question waited only for the batch in flight');
    r.release('question');
    await suggestion;
    r.release('suggestion');
    await queued[0];
    r.release('batch 2');
    await queued[1];
    r.release('batch 3');
    await queued[2];
    assert.deepEqual(r.granted, ['batch 1', 'question', 'suggestion', 'batch 2', 'batch 3', 'count']);
  });

  it('never queues a suggestion: skipped when no stream comes free within its wait', async () => {
    const scheduler = new StreamScheduler({ streams: 1 });
    const r = recorder(scheduler);
    await r.ask('answer', 'now');
    await rejectsWith(r.ask('suggestion', 'typing', { maxWaitMs: 0 }), 'cancelled');
    await rejectsWith(r.ask('suggestion 2', 'typing', { maxWaitMs: 30 }), 'cancelled');
    assert.deepEqual(scheduler.activity().waiting, { now: 0, typing: 0, background: 0 }, 'nothing left waiting');
  });

  it('gives a suggestion the stream that comes free within its wait, but not one a question waits for', async () => {
    const scheduler = new StreamScheduler({ streams: 1 });
    const r = recorder(scheduler);
    await r.ask('batch', 'background');
    const suggestion = r.ask('suggestion', 'typing', { maxWaitMs: 5_000 });
    r.release('batch');
    await suggestion;
    assert.deepEqual(r.granted, ['batch', 'suggestion']);

    const question = r.ask('question', 'now');
    const late = r.ask('late suggestion', 'typing', { maxWaitMs: 50 });
    r.release('suggestion');
    await question;
    await rejectsWith(late, 'cancelled');
    assert.deepEqual(r.granted, ['batch', 'suggestion', 'question']);
  });

  it('starts no background work while a question waits, and resumes it by itself after', async () => {
    const scheduler = new StreamScheduler({ streams: 2 });
    const r = recorder(scheduler);
    await r.ask('answer 1', 'now');
    await r.ask('answer 2', 'now');
    const waits: boolean[] = [];
    const question = r.ask('question', 'now', { onWait: (waiting) => waits.push(waiting) });
    const batch = r.ask('batch', 'background');
    await settle();
    assert.deepEqual(scheduler.activity().waiting, { now: 1, typing: 0, background: 1 });
    r.release('answer 1');
    await question;
    assert.deepEqual(waits, [true, false], 'the question was told it waited, then that it got its stream');
    assert.ok(!r.granted.includes('batch'), 'the batch still waits: the budget is used');
    r.release('answer 2');
    await batch;
  });

  it('stops waiting the moment the request is cancelled, and gives a stream released by a stop to the next at once', async () => {
    const scheduler = new StreamScheduler({ streams: 1 });
    const r = recorder(scheduler);
    await r.ask('answer', 'now');
    const stop = new AbortController();
    const cancelledQuestion = r.ask('cancelled', 'now', { signal: stop.signal });
    const next = r.ask('next', 'now');
    stop.abort();
    await rejectsWith(cancelledQuestion, 'cancelled');
    r.release('answer');
    await next;
    assert.deepEqual(r.granted, ['answer', 'next']);
  });
});

describe('StreamBudget: the account streams, learned from 429s', () => {
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };

  it('gives an individual one stream and a business ten', () => {
    assert.equal(streamsOfScope('GIGACHAT_API_PERS'), 1);
    assert.equal(streamsOfScope('GIGACHAT_API_B2B'), 10);
    assert.equal(streamsOfScope('GIGACHAT_API_CORP'), 10);
  });

  it('is cut to what was in flight at a 429, logged once, and grows back one stream after a quiet while', () => {
    let now = 0;
    const lines: string[] = [];
    const budget = new StreamBudget(10, { ...quiet, info: (line: string) => lines.push(line) }, () => now);
    assert.equal(budget.refused(0), false, 'a 429 with nothing else in flight is not the limit');
    assert.equal(budget.refused(3), true);
    assert.equal(budget.current, 3);
    budget.refused(2);
    assert.equal(budget.current, 2);
    assert.equal(lines.length, 1, 'said once in the log');
    for (let i = 0; i < 50; i++) budget.served();
    assert.equal(budget.current, 2, 'not within the quiet minute');
    now = 61_000;
    for (let i = 0; i < 20; i++) budget.served();
    assert.equal(budget.current, 3, 'one stream more');
    for (let i = 0; i < 20; i++) budget.served();
    assert.equal(budget.current, 3, 'and the next only after another quiet minute');
  });

  it('lowers the scheduler so that a third request waits instead of being refused', async () => {
    const scheduler = new StreamScheduler({ streams: 3 });
    const r = recorder(scheduler);
    const one = await r.ask('one', 'now');
    await r.ask('two', 'now');
    const three = await r.ask('three', 'now');
    assert.equal(scheduler.refused(three), true, 'refused while two were served: the limit');
    assert.equal(scheduler.budget.current, 2);
    const again = r.ask('three again', 'now');
    await settle();
    assert.ok(!r.granted.includes('three again'), 'it waits for one of the two');
    one.release();
    await again;
  });
});
