import * as vscode from 'vscode';
import { ReadOnlyDocuments } from '../readOnlyDocuments';

/** Reports kept for documents still open; older ones are dropped. */
const KEPT_REPORTS = 5;

/**
 * The connection check's report, read-only: shown rendered (VS Code's Markdown preview), easy to
 * read, and its source a click away (the preview's Open Source) to copy whole into a message to an
 * IT department.
 */
export class ReportDocument implements vscode.Disposable {
  private readonly reports = new ReadOnlyDocuments('gigachat-report', KEPT_REPORTS);

  async show(text: string): Promise<void> {
    const uri = this.reports.add(`${vscode.l10n.t('GigaChat connection check')}.md`, text);
    try {
      await vscode.commands.executeCommand('markdown.showPreview', uri);
    } catch {
      // Without VS Code's Markdown extension (disabled), the source is shown instead.
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
    }
  }

  dispose(): void {
    this.reports.dispose();
  }
}
