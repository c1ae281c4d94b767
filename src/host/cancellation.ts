import type * as vscode from 'vscode';

/**
 * The core takes an AbortSignal, VS Code gives a CancellationToken: a signal that aborts when the
 * token is cancelled. `dispose` stops listening (the token may outlive the work).
 */
export function abortSignalOf(token: vscode.CancellationToken): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  const subscription = token.onCancellationRequested(() => controller.abort());
  return {
    signal: controller.signal,
    dispose: () => {
      subscription.dispose();
    },
  };
}
