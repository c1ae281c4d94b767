/**
 * Where the workspace index stands, as one value: whether a full scan is due, running or done, and
 * so what a change to a single file may do, and what the status bar shows (`shownState`).
 * WorkspaceIndex holds the value and acts on it; the transitions are here, free of VS Code, so they
 * can be tested on their own.
 *
 *   stale, cleared ── a search scans ──▶ scanning
 *   scanning ── finished, nothing changed meanwhile, the files agreed to ──▶ current
 *   scanning ── finished otherwise, declined, failed or stopped ──▶ stale (unfinished, if it had begun sending)
 *   current ── settings, ignore rules or many files changed ──▶ stale (scanning: once it ends)
 *   any ── Clear Search Index ──▶ cleared
 */
import type { IndexProgress } from '../../core';
import type { PathChange } from './changeBatcher';
import type { IndexState } from './indexState';

/**
 * A full scan that began sending files and did not finish (cancelled, failed, or the window closed
 * under it): of how many files, and, read back from the last window, how many it had indexed.
 */
export interface Unfinished {
  readonly totalFiles: number;
  readonly files?: number;
  /** The user stopped it: a new window does not resume it by itself. */
  readonly stopped?: boolean;
}

/** A scan's progress once the user agreed and files are sent. */
export interface ScanProgress {
  readonly progress: IndexProgress;
  readonly totalFiles: number;
}

export type IndexLifecycle<Scope> =
  /**
   * A full scan is due: nothing is indexed in this window yet, or the set of files may have
   * changed. Saved files wait for it (it reads them anyway); deletions still apply.
   */
  | { readonly kind: 'stale'; readonly unfinished?: Unfinished }
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
  | {
      readonly kind: 'scanning';
      readonly scan: symbol;
      readonly invalidated: boolean;
      readonly changes: ReadonlyMap<string, PathChange>;
      /** The scan it continues, shown until this one sends files. */
      readonly unfinished?: Unfinished;
      readonly progress?: ScanProgress;
    }
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

/** A full scan starts from `state` (an unfinished one stays shown until this one sends files). */
export function startScan<Scope>(state: IndexLifecycle<Scope> = STALE): Scanning<Scope> {
  const unfinished = state.kind === 'stale' || state.kind === 'scanning' ? state.unfinished : undefined;
  return { kind: 'scanning', scan: Symbol('scan'), invalidated: false, changes: new Map(), ...(unfinished && { unfinished }) };
}

/** The scan `scan` sent files: how far it got. */
export function scanProgressed<Scope>(state: IndexLifecycle<Scope>, scan: symbol, progress: ScanProgress): IndexLifecycle<Scope> {
  return state.kind === 'scanning' && state.scan === scan ? { ...state, progress } : state;
}

/** Files changed: while a scan runs, they are kept to be settled again once it ends. */
export function noteChanges<Scope>(state: IndexLifecycle<Scope>, changes: ReadonlyMap<string, PathChange>): IndexLifecycle<Scope> {
  if (state.kind !== 'scanning' || changes.size === 0) return state;
  return { ...state, changes: new Map([...state.changes, ...changes]) };
}

/**
 * The scan `scan` ended: with the scope it read, and whether the user agreed to send the files
 * (without agreement, e.g. nothing to send yet, no saved file may be sent either); or, `result`
 * undefined, declined, failed or (`stopped`) stopped by the user. Returns the new state and the
 * changes to settle again (only after a finished scan); a scan that is no longer the current one
 * (Clear came) changes nothing.
 */
export function endScan<Scope>(
  state: IndexLifecycle<Scope>,
  scan: symbol,
  result?: { scope: Scope; agreed: boolean },
  stopped = false,
): { state: IndexLifecycle<Scope>; changes: ReadonlyMap<string, PathChange> } {
  if (state.kind !== 'scanning' || state.scan !== scan) return { state, changes: new Map() };
  if (!result) {
    // Declined before sending anything: what was unfinished before still is.
    const unfinished = state.progress ? { totalFiles: state.progress.totalFiles, stopped } : state.unfinished;
    return { state: unfinished ? { kind: 'stale', unfinished } : STALE, changes: new Map() };
  }
  const upToDate = !state.invalidated && result.agreed;
  return { state: upToDate ? { kind: 'current', scope: result.scope } : STALE, changes: state.changes };
}

/**
 * What the status bar shows of `state`, given what is indexed in this window (undefined before the
 * index is opened): progress while a scan sends files, an unfinished scan's count of its files, or
 * how much is indexed.
 */
export function shownState<Scope>(state: IndexLifecycle<Scope>, indexed: { files: number; chunks: number } | undefined): IndexState {
  if (state.kind === 'cleared') return { phase: 'idle' };
  if (state.kind === 'current') return { phase: 'ready', files: indexed?.files ?? 0, chunks: indexed?.chunks ?? 0 };
  if (state.kind === 'scanning' && state.progress) return { phase: 'indexing', ...state.progress };
  const { unfinished } = state;
  // Until a scan in this window has indexed files again, the count the last window left is the one to show.
  if (unfinished) return { phase: 'incomplete', files: indexed?.files || (unfinished.files ?? 0), totalFiles: unfinished.totalFiles };
  return indexed && indexed.files > 0 ? { phase: 'ready', ...indexed } : { phase: 'idle' };
}
