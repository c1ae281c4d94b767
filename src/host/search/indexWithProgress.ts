import * as vscode from 'vscode';
import { isServiceError } from '../../core';
import { showErrorNotification } from '../errors';
import type { Log } from '../log';
import { withCancellableProgress } from '../progress';
import type { IndexingConsent } from './indexingConsent';
import type { WorkspaceIndex } from './workspaceIndex';
import { countMessage } from '../countMessage';

/**
 * Runs the full scan the index needs (if any) behind a cancellable notification that counts files,
 * chunks and requests, asking for consent first when the workspace has not given it. Resolves
 * whether the index is current; failures are reported here (with the chat's messages and actions).
 */
export async function indexWithProgress(index: WorkspaceIndex, consent: IndexingConsent, log: Log, retry: () => unknown): Promise<boolean> {
  if (!index.needsScan) return true;
  return withCancellableProgress(vscode.l10n.t('GigaChat: indexing the workspace'), async (signal, report) => {
    report(vscode.l10n.t('Looking for files…'));
    let reported = 0;
    // From the index's state rather than the scan's callback: a command that joins a scan another started shows its progress too.
    const progress = index.onDidChangeState((state) => {
      if (state.phase !== 'indexing') return;
      const { progress: done, totalFiles } = state;
      const percent = totalFiles > 0 ? (100 * done.files) / totalFiles : 100;
      // A pass after changed rules starts again from 0; the bar does not run backwards.
      const increment = Math.max(0, percent - reported);
      reported += increment;
      report(
        countMessage('{0|#} of {1|# file|# files} · {2|# chunk|# chunks} · {3|# request|# requests}', done.files, totalFiles, done.chunks, done.requests),
        increment,
      );
    });
    try {
      return await index.ensureCurrent({ consent, signal });
    } catch (error) {
      if (isServiceError(error) && error.kind === 'cancelled') {
        // Stopped by Clear Search Index or another command's Cancel: that one speaks for it.
        if (!signal.aborted) return false;
        const files = index.state.phase === 'incomplete' ? index.state.files : 0;
        void vscode.window.showInformationMessage(
          countMessage('Indexing stopped with {0|# file|# files} indexed. The next search continues where it stopped.', files),
        );
      } else {
        void showErrorNotification(error, log, retry);
      }
      return false;
    } finally {
      progress.dispose();
    }
  });
}
