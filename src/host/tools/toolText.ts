import * as vscode from 'vscode';

/** A tool's result as one text part, what the model reads. */
export function toolText(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

/**
 * What the Chat shows while a tool runs, as plain text: VS Code renders it as markdown, and it
 * quotes what the model gave (a path, a pattern, a query), which must not become a link or an image.
 */
export function progressText(text: string): vscode.MarkdownString {
  return new vscode.MarkdownString().appendText(text);
}
