/**
 * Where the workspace index stands, as one value: whether a full scan is due, running or done, and
 * so what a change to a single file may do. WorkspaceIndex holds the value and acts on it; the
 * transitions are here, free of VS Code, so they can be tested on their own.
 *
 *   stale, cleared ── a search scans ──▶ scanning
 *   scanning ── finished, nothing changed meanwhile, the files agreed to ──▶ current
 *   scanning ── finished otherwise, declined, failed or stopped ──▶ stale
 *   current ── settings, ignore rules or many files changed ──▶ stale (scanning: once it ends)
 *   any ── Clear Search Index ──▶ cleared
 */
import type { PathChange } from './changeBatcher';

export type IndexLifecycle<Scope> =
  /**
   * A full scan is due: nothing is indexed in this window yet, or the set of files may have
   * changed. Saved files wait for it (it reads them anyway); deletions still apply.
   */
  | { readonly kind: 'stale' }
  /**
   * Like stale, after Clear Search Index: the user withdrew the files, so a search that was
   * waiting on scans starts no further one. Only a new request scans.
   */
  | { readonly kind: 'cleared' }
  /**
   * A full scan runs. It may have read a file before it changed, so changes wait in `changes`
   * until it ends; `invalidated`: the set of files changed meanwhile, so another scan is due.
   * `scan` tells this scan from a later one (a scan stopped by Clear may end after the next began).
   */
  | { readonly kind: 'scanning'; readonly scan: symbol; readonly invalidated: boolean; readonly changes: ReadonlyMap<string, PathChange> }
  /** The last full scan is up to date: saved files are re-indexed one by one, by its `scope` (folders and rules). */
  | { readonly kind: 'current'; readonly scope: Scope };

type Scanning<Scope> = Extract<IndexLifecycle<Scope>, { kind: 'scanning' }>;

export const STALE = { kind: 'stale' } as const;
export const CLEARED = { kind: 'cleared' } as const;

/** Whether a search must scan first (or join the scan under way). */
export function needsScan<Scope>(state: IndexLifecycle<Scope>): boolean {
  return state.kind !== 'current';
}

/** The scope single-file updates go by; only while the last scan is current. */
export function currentScope<Scope>(state: IndexLifecycle<Scope>): Scope | undefined {
  return state.kind === 'current' ? state.scope : undefined;
}

/** Whether invalidating `state` makes a scan due that was not (worth a line in the log). */
export function invalidationIsNews<Scope>(state: IndexLifecycle<Scope>): boolean {
  return state.kind === 'current' || state.kind === 'scanning';
}

/** Something that decides the set of files changed: the next search scans again. */
export function invalidate<Scope>(state: IndexLifecycle<Scope>): IndexLifecycle<Scope> {
  if (state.kind === 'current') return STALE;
  if (state.kind === 'scanning') return { ...state, invalidated: true };
  return state;
}

export function startScan<Scope>(): Scanning<Scope> {
  return { kind: 'scanning', scan: Symbol('scan'), invalidated: false, changes: new Map() };
}

/** Files changed: while a scan runs, they are kept to be settled again once it ends. */
export function noteChanges<Scope>(state: IndexLifecycle<Scope>, changes: ReadonlyMap<string, PathChange>): IndexLifecycle<Scope> {
  if (state.kind !== 'scanning' || changes.size === 0) return state;
  return { ...state, changes: new Map([...state.changes, ...changes]) };
}

/**
 * The scan `scan` ended: with the scope it read, and whether the user agreed to send the files
 * (without agreement, e.g. nothing to send yet, no saved file may be sent either); or, `result`
 * undefined, declined, failed or stopped. Returns the new state and the changes to settle again
 * (only after a finished scan); a scan that is no longer the current one (Clear came) changes nothing.
 */
export function endScan<Scope>(
  state: IndexLifecycle<Scope>,
  scan: symbol,
  result?: { scope: Scope; agreed: boolean },
): { state: IndexLifecycle<Scope>; changes: ReadonlyMap<string, PathChange> } {
  if (state.kind !== 'scanning' || state.scan !== scan) return { state, changes: new Map() };
  if (!result) return { state: STALE, changes: new Map() };
  const upToDate = !state.invalidated && result.agreed;
  return { state: upToDate ? { kind: 'current', scope: result.scope } : STALE, changes: state.changes };
}
