import * as vscode from 'vscode';

/** The scheme of a proposed change's text, shown read-only on the right of the diff editor. */
export const PROPOSAL_SCHEME = 'gigachat-proposal';

/**
 * The texts of changes waiting for the user's answer, served to VS Code's diff editor as read-only
 * documents. A proposal's URI keeps the file's path (so the editor picks its language and shows
 * its name) and carries an id of its own, so two proposals for one file never mix.
 */
export class ProposedTexts implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private next = 0;

  /** Serves `text` until `forget`; returns the URI to open it by. */
  add(file: vscode.Uri, text: string): vscode.Uri {
    const uri = file.with({ scheme: PROPOSAL_SCHEME, authority: '', query: `proposal=${++this.next}`, fragment: '' });
    this.texts.set(uri.toString(), text);
    return uri;
  }

  forget(uri: vscode.Uri): void {
    this.texts.delete(uri.toString());
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }
}
