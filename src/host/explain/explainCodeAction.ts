import * as vscode from 'vscode';
import { commandId } from '../commands';

/** Offers "Explain with GigaChat" as a code action on a non-empty selection. Registered at activation, so it imports nothing else. */
export class ExplainCodeActionProvider implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.Empty];

  provideCodeActions(_document: vscode.TextDocument, range: vscode.Range | vscode.Selection): vscode.CodeAction[] {
    if (range.isEmpty) return [];
    const action = new vscode.CodeAction(vscode.l10n.t('Explain with GigaChat'), vscode.CodeActionKind.Empty);
    action.command = { command: commandId('explainSelection'), title: action.title };
    return [action];
  }
}
