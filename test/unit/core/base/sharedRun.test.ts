import * as assert from 'node:assert/strict';
import { SharedRun } from '../../../../src/core/base/sharedRun';

/** A task that ends when the test says, or rejects as soon as its signal aborts. */
function controlledTask() {
  const started: AbortSignal[] = [];
  let finish: (value: string) => void = () => undefined;
  const start = (signal: AbortSignal) =>
    new Promise<string>((resolve, reject) => {
      started.push(signal);
      finish = resolve;
      signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
    });
  return { started, start, finish: (value: string) => finish(value) };
}

describe('SharedRun', () => {
  it('starts one run however many callers join, and gives each its result', async () => {
    const run = new SharedRun<string>();
    const task = controlledTask();
    const callers = [run.join(task.start), run.join(task.start), run.join(task.start)];
    assert.equal(task.started.length, 1);
    task.finish('done');
    assert.deepEqual(await Promise.all(callers), ['done', 'done', 'done']);
    assert.equal(run.current, undefined, 'nothing runs once it ended');
  });

  it('any caller’s abort stops the run for all of them', async () => {
    const run = new SharedRun<string>();
    const task = controlledTask();
    const first = run.join(task.start);
    const second = new AbortController();
    const joined = run.join(task.start, second.signal);
    second.abort();
    await assert.rejects(first, /aborted/);
    await assert.rejects(joined, /aborted/);
  });

  it('stop() aborts the run under way, and the next join starts a new one', async () => {
    const run = new SharedRun<string>();
    const task = controlledTask();
    const first = run.join(task.start);
    run.stop();
    await assert.rejects(first, /aborted/);
    const next = run.join(task.start);
    assert.equal(task.started.length, 2);
    assert.equal(task.started[1].aborted, false);
    task.finish('again');
    assert.equal(await next, 'again');
  });

  it('a caller whose signal is already aborted stops the run it joins', async () => {
    const run = new SharedRun<string>();
    const task = controlledTask();
    await assert.rejects(run.join(task.start, AbortSignal.abort()), /aborted/);
  });
});
