import * as assert from 'node:assert/strict';
import { ChangeBatcher, planBatch, type PathChange } from '../../../../src/host/search/changeBatcher';
import { ManualClock } from '../../support/manualClock';

describe('ChangeBatcher', () => {
  function batcher() {
    const clock = new ManualClock();
    const batches: [string, PathChange][][] = [];
    const changes = new ChangeBatcher((batch) => batches.push([...batch]), { quietMs: 300, maxWaitMs: 1000 }, clock);
    return { clock, batches, changes };
  }

  it('delivers a burst once it goes quiet, each path once with what happened to it last', () => {
    const { clock, batches, changes } = batcher();
    // A save fires the watcher's change and VS Code's save; a file written, then deleted; one deleted, then created again.
    changes.add('a.ts', 'changed');
    clock.advance(50);
    changes.add('a.ts', 'changed');
    changes.add('tmp.ts', 'changed');
    changes.add('tmp.ts', 'deleted');
    changes.add('b.ts', 'deleted');
    changes.add('b.ts', 'changed');
    clock.advance(299);
    assert.equal(batches.length, 0, 'not while events may still come');
    clock.advance(1);
    assert.deepEqual(batches, [
      [
        ['a.ts', 'changed'],
        ['tmp.ts', 'deleted'],
        ['b.ts', 'changed'],
      ],
    ]);
    assert.equal(clock.pending, 0);
  });

  it('a checkout of 2,000 files is one batch, not 2,000', () => {
    const { clock, batches, changes } = batcher();
    for (let i = 0; i < 2000; i++) changes.add(`src/file${i}.ts`, i % 10 === 0 ? 'deleted' : 'changed');
    clock.advance(300);
    assert.equal(batches.length, 1);
    assert.equal(batches[0].length, 2000);
  });

  it('events that never stop still go out within the longest wait, then start a new batch', () => {
    const { clock, batches, changes } = batcher();
    for (let t = 0; t < 1500; t += 100) {
      changes.add(`log${t}.txt`, 'changed');
      clock.advance(100);
    }
    assert.equal(batches.length, 1, 'one batch after 1 s of events every 100 ms');
    assert.equal(batches[0].length, 10);
    clock.advance(300);
    assert.equal(batches.length, 2);
    assert.equal(batches[1].length, 5);
  });

  it('after dispose, delivers nothing', () => {
    const { clock, batches, changes } = batcher();
    changes.add('a.ts', 'changed');
    changes.dispose();
    clock.advance(5000);
    assert.deepEqual(batches, []);
    assert.equal(clock.pending, 0);
  });
});

describe('planBatch', () => {
  const changes = (count: number, prefix = 'src/') => new Map(Array.from({ length: count }, (_, i): [string, PathChange] => [`${prefix}f${i}.ts`, 'changed']));
  const inSource = (key: string) => key.startsWith('src/');

  it('updates a few files one by one, leaving out those that cannot matter', () => {
    const batch = new Map([...changes(3), ...changes(500, 'node_modules/')]);
    assert.deepEqual(planBatch(batch, inSource, 100), {
      kind: 'each',
      changes: [
        ['src/f0.ts', 'changed'],
        ['src/f1.ts', 'changed'],
        ['src/f2.ts', 'changed'],
      ],
    });
  });

  it('scans instead when more than the limit matter', () => {
    assert.equal(planBatch(changes(100), inSource, 100).kind, 'each');
    assert.deepEqual(planBatch(changes(101), inSource, 100), { kind: 'scan', count: 101 });
  });
});
