import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Prompt } from './chat/chatController';

/** Longer selections are cut (with a visible notice) so one request stays within the model's limits. */
export const MAX_SELECTION_CHARS = 12_000;

/** The prompt that explains the editor's selection: file, language and line numbers included. */
export function explainPrompt(document: vscode.TextDocument, selection: vscode.Range): Prompt {
  let code = document.getText(selection);
  const file = vscode.workspace.asRelativePath(document.uri, false) || path.basename(document.fileName);
  const first = selection.start.line + 1;
  const last = selection.end.character === 0 && selection.end.line > selection.start.line ? selection.end.line : selection.end.line + 1;
  let notice: string | undefined;
  if (code.length > MAX_SELECTION_CHARS) {
    code = code.slice(0, MAX_SELECTION_CHARS);
    notice = vscode.l10n.t('The selection was trimmed to its first {0} characters.', MAX_SELECTION_CHARS);
  }
  const fence = code.includes('```') ? '````' : '```';
  const lines = first === last ? vscode.l10n.t('line {0}', first) : vscode.l10n.t('lines {0}–{1}', first, last);
  const text = vscode.l10n.t('Explain this code from {0} ({1}, {2}): what it does, how, and anything surprising.', file, lines, document.languageId) + `\n\n${fence}${document.languageId}\n${code}\n${fence}`;
  return { text, contextLabel: `${path.basename(file)}:${first === last ? first : `${first}–${last}`}`, notice };
}

/** Offers "Explain with GigaChat" as a code action on a non-empty selection. */
export class ExplainCodeActionProvider implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.Empty];

  provideCodeActions(_document: vscode.TextDocument, range: vscode.Range | vscode.Selection): vscode.CodeAction[] {
    if (range.isEmpty) return [];
    const action = new vscode.CodeAction(vscode.l10n.t('Explain with GigaChat'), vscode.CodeActionKind.Empty);
    action.command = { command: 'gigachat.explainSelection', title: action.title };
    return [action];
  }
}
