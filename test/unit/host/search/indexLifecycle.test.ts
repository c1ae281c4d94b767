import * as assert from 'node:assert/strict';
import type { PathChange } from '../../../../src/host/search/changeBatcher';
import {
  CLEARED,
  currentScope,
  endScan,
  type IndexLifecycle,
  invalidate,
  invalidationIsNews,
  needsScan,
  noteChanges,
  scanProgressed,
  shownState,
  STALE,
  startScan,
} from '../../../../src/host/search/indexLifecycle';
import { readUnfinished, UnfinishedRecord } from '../../../../src/host/search/unfinishedIndex';
import type { IndexProgress } from '../../../../src/core';

type Scope = { rules: string };
const scope: Scope = { rules: 'v1' };
const changes = (...entries: [string, PathChange][]) => new Map(entries);

describe('the workspace index lifecycle', () => {
  it('a window starts stale: the first search scans, and single files wait for it', () => {
    assert.equal(needsScan(STALE), true);
    assert.equal(currentScope(STALE), undefined);
  });

  it('a finished scan makes the index current, and saved files are then updated by its scope', () => {
    const scanning = startScan<Scope>();
    assert.equal(needsScan(scanning), true, 'a search during the scan joins it');
    assert.equal(currentScope(scanning), undefined, 'no single updates while it runs');
    const { state, changes: settle } = endScan<Scope>(scanning, scanning.scan, { scope, agreed: true });
    assert.deepEqual(state, { kind: 'current', scope });
    assert.equal(needsScan(state), false);
    assert.equal(currentScope(state), scope);
    assert.equal(settle.size, 0);
  });

  it('files changed during a scan are settled again once it ends, each once, as they were last', () => {
    const scanning = startScan<Scope>();
    let state: IndexLifecycle<Scope> = noteChanges<Scope>(scanning, changes(['a.ts', 'changed'], ['b.ts', 'changed']));
    state = noteChanges(state, changes(['b.ts', 'deleted']));
    const ended = endScan(state, scanning.scan, { scope, agreed: true });
    assert.equal(ended.state.kind, 'current');
    assert.deepEqual(
      [...ended.changes],
      [
        ['a.ts', 'changed'],
        ['b.ts', 'deleted'],
      ],
    );
  });

  it('changes outside a scan are not kept (they are applied, or the scan due reads them)', () => {
    const current: IndexLifecycle<Scope> = { kind: 'current', scope };
    assert.equal(noteChanges(current, changes(['a.ts', 'changed'])), current);
    assert.equal(noteChanges(STALE, changes(['a.ts', 'changed'])), STALE);
  });

  it('invalidating a current index makes the next search scan', () => {
    const current: IndexLifecycle<Scope> = { kind: 'current', scope };
    assert.equal(invalidationIsNews(current), true);
    assert.equal(invalidate(current), STALE);
    assert.equal(invalidationIsNews(STALE), false, 'already due: nothing to log');
    assert.equal(invalidate(STALE), STALE);
  });

  it('invalidated during a scan: the scan ends stale, so another one runs', () => {
    const scanning = startScan<Scope>();
    assert.equal(invalidationIsNews(scanning), true);
    const ended = endScan(invalidate<Scope>(scanning), scanning.scan, { scope, agreed: true });
    assert.equal(ended.state, STALE);
  });

  it('a scan without the user’s agreement (nothing to send yet) leaves the index stale: no saved file is sent', () => {
    const scanning = startScan<Scope>();
    assert.equal(endScan(scanning, scanning.scan, { scope, agreed: false }).state, STALE);
  });

  it('a declined, failed or stopped scan leaves the index stale, with nothing to settle', () => {
    const scanning = startScan<Scope>();
    const ended = endScan(noteChanges<Scope>(scanning, changes(['a.ts', 'changed'])), scanning.scan);
    assert.equal(ended.state, STALE);
    assert.equal(ended.changes.size, 0);
  });

  it('Clear Search Index wins over the scan it stopped, however that scan ends', () => {
    const scanning = startScan<Scope>();
    assert.equal(invalidate(CLEARED), CLEARED, 'stays cleared');
    assert.deepEqual(endScan<Scope>(CLEARED, scanning.scan, { scope, agreed: true }), { state: CLEARED, changes: new Map() });
    assert.equal(needsScan(CLEARED), true, 'a new search scans');
  });

  it('a scan that ends after a newer one began leaves the newer one alone', () => {
    const stopped = startScan<Scope>();
    const newer = startScan<Scope>();
    assert.equal(endScan<Scope>(newer, stopped.scan).state, newer);
  });

  describe('what the status bar shows, and what the next window resumes', () => {
    const progress = (files: number): IndexProgress => ({
      files,
      chunks: files * 3,
      requests: files,
      cachedChunks: 0,
      embeddedChunks: files * 3,
      rateLimited: 0,
    });
    const indexed = { files: 40, chunks: 120 };

    it('a scan shows its progress only once it sends files; a current index how much it holds', () => {
      const scanning = startScan<Scope>();
      assert.deepEqual(shownState(scanning, undefined), { phase: 'idle' }, 'nothing says "indexing" before the user agreed');
      const sending = scanProgressed<Scope>(scanning, scanning.scan, { progress: progress(3), totalFiles: 10 });
      assert.deepEqual(shownState(sending, indexed), { phase: 'indexing', progress: progress(3), totalFiles: 10 });
      assert.equal(scanProgressed<Scope>(sending, Symbol('older scan'), { progress: progress(9), totalFiles: 10 }), sending, 'an older scan changes nothing');
      assert.deepEqual(shownState<Scope>({ kind: 'current', scope }, indexed), { phase: 'ready', ...indexed });
      assert.deepEqual(shownState<Scope>(CLEARED, indexed), { phase: 'idle' });
    });

    it('a scan that sent files and did not finish leaves the index unfinished: of how many files, and whether the user stopped it', () => {
      const scanning = startScan<Scope>();
      const sending = scanProgressed<Scope>(scanning, scanning.scan, { progress: progress(3), totalFiles: 10 });
      const failed = endScan(sending, scanning.scan).state;
      assert.deepEqual(failed, { kind: 'stale', unfinished: { totalFiles: 10, stopped: false } });
      assert.deepEqual(shownState(failed, indexed), { phase: 'incomplete', files: 40, totalFiles: 10 });
      assert.deepEqual(endScan(sending, scanning.scan, undefined, true).state, { kind: 'stale', unfinished: { totalFiles: 10, stopped: true } });
      assert.equal(needsScan(failed), true);
      // The next scan shows it unfinished until it sends files itself, and a finished one ends it.
      const next = startScan(failed);
      assert.deepEqual(shownState(next, indexed).phase, 'incomplete');
      const declined = startScan(failed);
      assert.deepEqual(endScan(declined, declined.scan).state, failed, 'declined before sending: still unfinished');
      assert.deepEqual(endScan(next, next.scan, { scope, agreed: true }).state, { kind: 'current', scope });
    });

    it('the last window’s count is shown until this window has indexed files again', () => {
      const unfinished = { kind: 'stale', unfinished: { totalFiles: 2100, files: 1408, stopped: false } } as const;
      assert.deepEqual(shownState<Scope>(unfinished, undefined), { phase: 'incomplete', files: 1408, totalFiles: 2100 });
      assert.deepEqual(shownState<Scope>(unfinished, { files: 0, chunks: 0 }), { phase: 'incomplete', files: 1408, totalFiles: 2100 });
      assert.deepEqual(shownState<Scope>(unfinished, { files: 1500, chunks: 4000 }), { phase: 'incomplete', files: 1500, totalFiles: 2100 });
    });

    it('the record the next window reads follows a scan in steps, keeps it when unfinished and drops it when finished', () => {
      const values = new Map<string, unknown>();
      let writes = 0;
      const memento = {
        get: <T>(key: string) => values.get(key) as T | undefined,
        update: (key: string, value: unknown) => {
          writes++;
          values.set(key, value);
          return Promise.resolve();
        },
        keys: () => [...values.keys()],
      };
      const record = new UnfinishedRecord(memento);
      for (let files = 0; files <= 1000; files++) record.note({ phase: 'indexing', progress: progress(files), totalFiles: 1000 }, STALE);
      assert.ok(writes <= 51, `${writes} writes for 1,000 files`);
      assert.deepEqual(readUnfinished(memento), { totalFiles: 1000, files: 1000, stopped: false });
      record.note({ phase: 'incomplete', files: 999, totalFiles: 1000 }, { kind: 'stale', unfinished: { totalFiles: 1000, stopped: true } });
      assert.deepEqual(readUnfinished(memento), { totalFiles: 1000, files: 999, stopped: true }, 'stopped by the user: written at once');
      assert.deepEqual(
        new UnfinishedRecord(memento).lastWindow,
        { kind: 'stale', unfinished: { totalFiles: 1000, files: 999, stopped: true } },
        'the next window starts from it',
      );
      record.note({ phase: 'ready', files: 1000, chunks: 3000 }, { kind: 'current', scope });
      assert.equal(readUnfinished(memento), undefined);
      record.freeze();
      record.note({ phase: 'incomplete', files: 5, totalFiles: 1000 }, STALE);
      assert.equal(readUnfinished(memento), undefined, 'nothing is recorded while the window closes');
      values.set('gigachat.search.unfinishedIndex', { totalFiles: 'many' });
      assert.equal(readUnfinished(memento), undefined, 'a record that is not one is ignored');
    });
  });
});
