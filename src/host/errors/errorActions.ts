import * as vscode from 'vscode';
import type { ErrorAction } from '../../shared/protocol';
import { ACTION_LABELS, webviewStrings } from '../../shared/strings';
import { GIGACHAT_API_PAGE } from '../key/accountPage';
import { describeError } from './errorDescription';
import type { Log } from '../log';
import { settingsQuery } from '../settings/settingsQueries';
import { notify, type NoticeKind } from '../notify';

/** What an error's buttons say and do, in the chat view, in notifications and in the connection check. */

export function actionLabel(action: ErrorAction): string {
  return vscode.l10n.t(webviewStrings[ACTION_LABELS[action]]);
}

/** What an error's buttons run that belongs to other features: typed calls, not command ids. */
export interface ErrorFixes {
  setAuthorizationKey(): Promise<unknown>;
  /** Each resolves true once the certificate is trusted, so what failed can be retried. */
  trustRootCertificate(): Promise<boolean>;
  addTrustedCertificate(): Promise<boolean>;
  certificateHelp(): Promise<unknown>;
  /** Selects a chat model that sees pictures; resolves true once it is selected, so the question can be asked again. */
  useVisionModel(): Promise<boolean>;
  /** Asks to index the workspace (the search command's consent), then indexes; resolves true once the index is ready, so the question can be asked again. */
  allowIndexing(): Promise<boolean>;
  /** GigaChat: Check Connection, which opens its report and offers the fix of a failed step. */
  checkConnection(): Promise<unknown>;
}

/** The buttons that are one of VS Code's own commands. */
export const WORKBENCH_ACTIONS = { openFolder: 'workbench.action.files.openFolder', manageTrust: 'workbench.trust.manage' } as const;

let fixes: ErrorFixes | undefined;

/** Gives the error buttons the features they run; services.ts calls it as it builds them, before any error can be shown. */
export function provideErrorFixes(provided: ErrorFixes): void {
  fixes = provided;
}

function errorFixes(): ErrorFixes {
  if (!fixes) throw new Error('An error button was used before the features it runs were built');
  return fixes;
}

/**
 * Carries out an error's button. `retry` is the caller's, since only it knows what to repeat; the
 * certificate buttons retry too once the certificate is trusted, so the failed request goes on.
 */
export async function runErrorAction(action: ErrorAction, log: Log, retry?: () => unknown): Promise<void> {
  switch (action) {
    case 'setKey':
      await errorFixes().setAuthorizationKey();
      return;
    case 'openAccount':
      await vscode.env.openExternal(vscode.Uri.parse(GIGACHAT_API_PAGE));
      return;
    case 'retry':
      await retry?.();
      return;
    case 'trustRootCertificate':
      if (await errorFixes().trustRootCertificate()) await retry?.();
      return;
    case 'chooseCertificateFile':
      if (await errorFixes().addTrustedCertificate()) await retry?.();
      return;
    case 'certificateHelp':
      await errorFixes().certificateHelp();
      return;
    case 'openLogs':
      log.show();
      return;
    case 'openSettings':
    case 'proxySettings':
    case 'addressSettings':
    case 'certificateSettings':
    case 'scopeSettings':
    case 'modelSettings':
      await vscode.commands.executeCommand('workbench.action.openSettings', settingsQuery(action));
      return;
    case 'checkConnection':
      await errorFixes().checkConnection();
      return;
    case 'useVisionModel':
      if (await errorFixes().useVisionModel()) await retry?.();
      return;
    case 'allowIndexing':
      if (await errorFixes().allowIndexing()) await retry?.();
      return;
    case 'openFolder':
    case 'manageTrust':
      await vscode.commands.executeCommand(WORKBENCH_ACTIONS[action]);
      return;
  }
}

/** A notification with the error's buttons (for commands that run outside the chat view). */
export async function showErrorNotification(error: unknown, log: Log, retry?: () => unknown): Promise<void> {
  const described = describeError(error, log);
  if (described.kind === 'cancelled') return;
  await offerErrorActions('error', described.message, described.actions, log, retry);
}

/**
 * Shows `message` with a button per action, and carries out the one clicked: the way every
 * notification offers a fix. A retry button is offered only with the `retry` that repeats the work.
 */
export async function offerErrorActions(kind: NoticeKind, message: string, actions: readonly ErrorAction[], log: Log, retry?: () => unknown): Promise<void> {
  const offered = actions.filter((action) => action !== 'retry' || retry);
  const action = await askErrorAction(message, offered, kind);
  if (action) await runErrorAction(action, log, retry);
}

/** Shows `message` (an error unless `kind` says otherwise) with a button per action; resolves to the one clicked. */
export async function askErrorAction<Action extends ErrorAction>(
  message: string,
  actions: readonly Action[],
  kind: NoticeKind = 'error',
): Promise<Action | undefined> {
  const labels = actions.map(actionLabel);
  const chosen = await notify(kind, message, labels);
  return chosen === undefined ? undefined : actions[labels.indexOf(chosen)];
}
