import * as vscode from 'vscode';

/** A tool's result as one text part, what the model reads. */
export function toolText(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}
