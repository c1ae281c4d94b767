import * as vscode from 'vscode';
import { abortSignalOf } from './cancellation';
import { plainLabel } from './plainLabel';

/**
 * Runs `task` under a cancellable progress notification. The core takes an AbortSignal, not a
 * CancellationToken: the notification's Cancel button aborts it.
 */
export function withCancellableProgress<T>(
  title: string,
  task: (signal: AbortSignal, report: (message: string, increment?: number) => void) => Promise<T>,
): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: plainLabel(title), cancellable: true }, (progress, token) => {
    const cancellation = abortSignalOf(token);
    return task(cancellation.signal, (message, increment) => progress.report({ message, increment })).finally(() => cancellation.dispose());
  });
}
