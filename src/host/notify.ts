import * as vscode from 'vscode';
import { plainLabel } from './plainLabel';

export type NoticeKind = 'info' | 'warning' | 'error';

export interface NoticeOptions {
  /** A dialog the user must answer before going on, rather than a notification in the corner. */
  modal?: boolean;
  /** The dialog's second paragraph (VS Code shows it only in a modal dialog). */
  detail?: string;
}

/**
 * Every notification and dialog of the extension goes through here (test/unit/project/shownText.test.ts
 * finds no other caller of `show…Message`). The caller writes the message with `vscode.l10n.t`, file
 * names, settings and the service's words in it as they are: the whole text is made inert here, so
 * no value shows as a link, nor does a link that a value forms with the words around it. The
 * extension's own texts hold no `](` (test/unit/project/localization.test.ts), so they show exactly as written. Resolves to the button clicked, undefined when the notice was closed.
 * Loaded at activation (servicesLoader.ts, firstRun.ts): it imports nothing heavier than plainLabel.
 */
export async function notify<Button extends string>(
  kind: NoticeKind,
  message: string,
  buttons: readonly Button[] = [],
  options: NoticeOptions = {},
): Promise<Button | undefined> {
  const show = kind === 'error' ? vscode.window.showErrorMessage : kind === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  const chosen = await show(
    plainLabel(message),
    { modal: options.modal ?? false, detail: options.detail === undefined ? undefined : plainLabel(options.detail) },
    ...buttons,
  );
  return buttons.find((button) => button === chosen);
}
