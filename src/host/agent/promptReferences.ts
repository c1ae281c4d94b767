import * as vscode from 'vscode';
import { fileExcerpt, quotedExcerpt, selectedExcerpt } from '../explain/codeExcerpts';

/**
 * What the user attached to the message (`#file`, a selection, a symbol), quoted after the
 * question: the user chose to send these, as with Add Selection to GigaChat. Each is trimmed like a
 * selection, so one message stays within the model's limits. Text references are left out: VS Code
 * and other extensions add their own (instructions, skills) that the user did not write.
 */
export async function withReferences(prompt: string, references: readonly vscode.ChatPromptReference[]): Promise<string> {
  const quoted: string[] = [];
  for (const reference of references) {
    const text = await referenceText(reference.value);
    if (text) quoted.push(text);
  }
  return quoted.length === 0 ? prompt : `${prompt}\n\n${quoted.join('\n\n')}`;
}

async function referenceText(value: unknown): Promise<string | undefined> {
  try {
    if (value instanceof vscode.Uri) return quotedExcerpt(fileExcerpt(await vscode.workspace.openTextDocument(value)));
    if (value instanceof vscode.Location) return quotedExcerpt(selectedExcerpt(await vscode.workspace.openTextDocument(value.uri), value.range));
  } catch {
    // A folder, a binary file, a file gone: nothing to quote.
  }
  return undefined;
}
