import * as vscode from 'vscode';
import type { Prompt } from './chat/chatController';
import { excerptLabel, fencedCode, linesText, selectedExcerpt, trimmedNotice } from './codeExcerpts';

/** The prompt that explains the editor's selection: file, language and line numbers included. */
export function explainPrompt(document: vscode.TextDocument, selection: vscode.Range): Prompt {
  const excerpt = selectedExcerpt(document, selection);
  const question = vscode.l10n.t('Explain this code from {0} ({1}, {2}): what it does, how, and anything surprising.', excerpt.file, linesText(excerpt.first, excerpt.last), excerpt.language);
  return { text: `${question}\n\n${fencedCode(excerpt.code, excerpt.language)}`, contextLabel: excerptLabel(excerpt), notice: excerpt.trimmed ? trimmedNotice() : undefined };
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
