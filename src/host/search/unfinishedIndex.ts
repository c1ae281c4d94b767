import type * as vscode from 'vscode';
import type { IndexLifecycle, Unfinished } from './indexLifecycle';
import type { IndexState } from './indexState';

/**
 * An unfinished full scan, kept in the workspace's state so that the next window shows it and goes
 * on with it: a window reload, crash or close in the middle of indexing loses only the batches in
 * flight (the embedding cache is saved every few batches and on deactivation), and the next start
 * embeds only what is missing. Light on imports: the extension's activation reads it.
 */
const KEY = 'gigachat.search.unfinishedIndex';

/** Progress is recorded in steps of this share of the files: each write is a message to VS Code's main process. */
const STEP_SHARE = 0.02;

/** The unfinished scan the last window left, if any. */
export function readUnfinished(state: vscode.Memento): Unfinished | undefined {
  const value = state.get<Partial<Unfinished>>(KEY);
  if (typeof value !== 'object' || value === null) return undefined;
  const { totalFiles, files, stopped } = value;
  if (!Number.isSafeInteger(totalFiles) || totalFiles! < 0) return undefined;
  return { totalFiles: totalFiles!, ...(Number.isSafeInteger(files) && { files }), stopped: stopped === true };
}

/** Keeps the record in step with what the index shows: a scan sending files or left unfinished; nothing once it finished or was cleared. */
export class UnfinishedRecord {
  private written: Unfinished | undefined;
  private frozen = false;

  constructor(private readonly state: vscode.Memento) {
    this.written = readUnfinished(state);
  }

  /** Where a window starts: stale, with the scan the last one left unfinished (shown, and continued by the next scan). */
  get lastWindow(): IndexLifecycle<never> {
    return { kind: 'stale', ...(this.written && { unfinished: this.written }) };
  }

  /** The window is closing: the scan it stops is left for the next window to resume, not stopped by the user. */
  freeze(): void {
    this.frozen = true;
  }

  /** The index is in `lifecycle`, showing `shown`. */
  note(shown: IndexState, lifecycle: IndexLifecycle<unknown>): void {
    if (this.frozen) return;
    const stopped = (lifecycle.kind === 'stale' || lifecycle.kind === 'scanning') && lifecycle.unfinished?.stopped === true;
    const next: Unfinished | undefined =
      shown.phase === 'indexing'
        ? { files: shown.progress.files, totalFiles: shown.totalFiles, stopped: false }
        : shown.phase === 'incomplete'
          ? { files: shown.files, totalFiles: shown.totalFiles, stopped }
          : undefined;
    if (!this.worthWriting(next)) return;
    this.written = next;
    void this.state.update(KEY, next);
  }

  private worthWriting(next: Unfinished | undefined): boolean {
    const last = this.written;
    if (!next || !last) return next !== last;
    if (next.totalFiles !== last.totalFiles || next.stopped !== last.stopped) return true;
    return Math.abs((next.files ?? 0) - (last.files ?? 0)) >= Math.max(1, next.totalFiles * STEP_SHARE);
  }
}

/**
 * At activation: when the last window left indexing unfinished, loads the search (its status bar
 * shows how far it got) and resumes it, unless the user had stopped it. Resuming asks nothing: it
 * goes on only with the consent the workspace gave (see SemanticSearch.resumeUnfinished).
 */
export function resumeUnfinishedIndex(state: vscode.Memento, search: () => { resumeUnfinished(): Promise<unknown> }): void {
  const unfinished = readUnfinished(state);
  if (!unfinished) return;
  let loaded;
  try {
    loaded = search();
  } catch {
    return; // the loader said why
  }
  if (!unfinished.stopped) void loaded.resumeUnfinished().catch(() => undefined);
}
