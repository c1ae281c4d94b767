import * as vscode from 'vscode';
import { messageOf, isDiskFull } from '../../core';
import { offerErrorActions } from '../errors/errorActions';
import type { Log } from '../log';

/**
 * A save of the search index that failed: always in the log; and when the disk is full, once to the
 * user too (until a save gets through again), since every later save would fail the same way and
 * the index built since would be embedded, and paid for, again in the next window. What was saved
 * before stays on disk whole: the cache never rewrites it on a full disk (cacheWriter.ts).
 */
let toldDiskFull = false;

export function cacheSaveFailed(error: unknown, log: Log, retry: () => Promise<void>): void {
  log.warn(`Search index: could not save the embedding cache: ${messageOf(error)}`);
  if (!isDiskFull(error) || toldDiskFull) return;
  toldDiskFull = true;
  const message = vscode.l10n.t(
    'The search index could not be saved: the disk is full. Search keeps working in this window, but what was indexed since the last save would be sent again after a restart. Free some disk space, then retry.',
  );
  void offerErrorActions('warning', message, ['retry'], log, () => {
    // A retry that meets a full disk again says so again.
    toldDiskFull = false;
    retry().then(cacheSaved, (again: unknown) => cacheSaveFailed(again, log, retry));
  });
}

/** A save got through: the next full disk is told again. */
export function cacheSaved(): void {
  toldDiskFull = false;
}
