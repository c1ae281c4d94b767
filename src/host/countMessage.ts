import * as vscode from 'vscode';
import { formatMessage, type MessageArgument } from '../shared/messageFormat';

/**
 * `vscode.l10n.t` for a message with counts (`{0|# file|# files}`, see `shared/messageFormat.ts`):
 * VS Code translates the message and this fills it, each count in the form of VS Code's language.
 * VS Code's own filling would leave the forms as they are written.
 */
export function countMessage(message: string, ...args: MessageArgument[]): string {
  return formatMessage(vscode.env.language, vscode.l10n.t(message), args);
}
