import * as vscode from 'vscode';
import { isServiceError } from '../../core';
import { showErrorNotification } from '../errors/errorActions';
import type { Log } from '../log';
import { withCancellableProgress } from '../progress';
import type { IndexingConsent } from './indexingConsent';
import type { IndexState, UploadConsent } from './indexState';
import type { WorkspaceIndex } from './workspaceIndex';
import { countMessage } from '../countMessage';
import { notify } from '../notify';

/**
 * Runs the full scan the index needs (if any) behind a cancellable notification that counts files,
 * chunks and requests, asking for consent first when the workspace has not given it. Resolves
 * whether the index is current; failures are reported here (with the chat's messages and actions).
 *
 * Until the user has agreed, nothing says "indexing": the files are counted for the question under
 * the status bar's spinner, and the notification appears once the user agreed and files are sent.
 */
export async function indexWithProgress(index: WorkspaceIndex, consent: IndexingConsent, log: Log, retry: () => unknown): Promise<boolean> {
  if (!index.needsScan) return true;
  const stop = new AbortController();
  let asked = (): void => undefined;
  const counted = new Promise<void>((resolve) => (asked = resolve));
  const askAfterCounting: UploadConsent = {
    get granted() {
      return consent.granted;
    },
    ask: (summary) => {
      asked();
      return consent.ask(summary);
    },
  };
  const run = index.ensureCurrent({ consent: askAfterCounting, signal: stop.signal });
  try {
    if (!consent.granted) {
      void vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Looking for files…') }, () =>
        Promise.race([counted, run.catch(() => undefined)]),
      );
      if (!(await sendingStarted(index, run))) return await run;
    }
    return await withCancellableProgress(vscode.l10n.t('GigaChat: indexing the workspace'), (signal, report) => {
      signal.addEventListener('abort', () => stop.abort(), { once: true });
      return reportingProgress(index, run, report);
    });
  } catch (error) {
    if (isServiceError(error) && error.kind === 'cancelled') {
      // Stopped by Clear Search Index or another command's Cancel: that one speaks for it.
      if (!stop.signal.aborted) return false;
      const files = index.state.phase === 'incomplete' ? index.state.files : 0;
      void notify('info', countMessage('Indexing stopped with {0|# file|# files} indexed. The next search continues where it stopped.', files));
    } else {
      void showErrorNotification(error, log, retry);
    }
    return false;
  }
}

/** Resolves true once files are being sent (the user agreed), false when the run ended before. */
function sendingStarted(index: WorkspaceIndex, run: Promise<boolean>): Promise<boolean> {
  return new Promise((resolve) => {
    const started = index.onDidChangeState((state) => state.phase === 'indexing' && settle(true));
    const settle = (value: boolean) => {
      started.dispose();
      resolve(value);
    };
    run.then(
      () => settle(false),
      () => settle(false),
    );
  });
}

/** Reports the run's files, chunks and requests as it goes; resolves as the run does. */
async function reportingProgress(index: WorkspaceIndex, run: Promise<boolean>, report: (message: string, increment?: number) => void): Promise<boolean> {
  let reported = 0;
  const show = (state: IndexState) => {
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
  };
  if (index.state.phase === 'indexing') show(index.state);
  else report(vscode.l10n.t('Looking for files…'));
  // From the index's state rather than the scan's callback: a command that joins a scan another started shows its progress too.
  const progress = index.onDidChangeState(show);
  try {
    return await run;
  } finally {
    progress.dispose();
  }
}
