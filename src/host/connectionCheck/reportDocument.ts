import * as vscode from 'vscode';

/**
 * The connection check's report as a read-only document: easy to read, to search, and to copy
 * whole into a message to an IT department. One document, updated by each run.
 */
export class ReportDocument implements vscode.TextDocumentContentProvider, vscode.Disposable {
  static readonly scheme = 'gigachat-report';
  private text = '';
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(): string {
    return this.text;
  }

  async show(text: string): Promise<void> {
    this.text = text;
    // The .md name gives the document Markdown colouring; the provider makes it read-only.
    const uri = vscode.Uri.from({ scheme: ReportDocument.scheme, path: `/${vscode.l10n.t('GigaChat connection check')}.md` });
    this.changed.fire(uri);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
  }

  dispose(): void {
    this.changed.dispose();
  }
}
