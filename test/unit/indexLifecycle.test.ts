import * as assert from 'node:assert/strict';
import type { PathChange } from '../../src/host/search/changeBatcher';
import {
  CLEARED,
  currentScope,
  endScan,
  type IndexLifecycle,
  invalidate,
  invalidationIsNews,
  needsScan,
  noteChanges,
  STALE,
  startScan,
} from '../../src/host/search/indexLifecycle';

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
});
