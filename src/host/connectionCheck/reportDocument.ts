import * as vscode from 'vscode';

/** Reports kept for documents still open; older ones are dropped. */
const KEPT_REPORTS = 5;

/**
 * The connection check's report as a read-only document: easy to read, to search, and to copy
 * whole into a message to an IT department. Each run is a document of its own, so a report never
 * shows the text of an earlier run while VS Code refreshes it.
 */
export class ReportDocument implements vscode.TextDocumentContentProvider {
  static readonly scheme = 'gigachat-report';
  private readonly reports = new Map<string, string>();
  private runs = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.reports.get(uri.query) ?? '';
  }

  async show(text: string): Promise<void> {
    const run = String(++this.runs);
    this.reports.set(run, text);
    for (const old of [...this.reports.keys()].slice(0, -KEPT_REPORTS)) this.reports.delete(old);
    // The .md name gives the document Markdown colouring; the provider makes it read-only.
    const uri = vscode.Uri.from({ scheme: ReportDocument.scheme, path: `/${vscode.l10n.t('GigaChat connection check')}.md`, query: run });
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
  }
}
