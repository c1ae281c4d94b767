import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';

const SCHEME = 'gigachat-reasoning';
/** Enough for the answers of a long session; the oldest are forgotten first (the button then says so). */
const MAX_KEPT = 50;

/**
 * A reasoning model's thinking in @gigachat's answers, read on request: VS Code's stable Chat API
 * can neither show thinking nor fold a section (it renders no HTML), so the answer has a button
 * that opens the thinking here, in a read-only editor beside the chat. The text is the model's,
 * shown as plain text, never rendered.
 */
export class ReasoningDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(SCHEME, this);

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.query) ?? vscode.l10n.t('This reasoning is no longer kept: it belonged to an answer of an earlier session.');
  }

  /** Opens `text` (the button's argument) beside the chat. */
  async show(text: unknown): Promise<void> {
    if (typeof text !== 'string' || text.trim() === '') return;
    const id = randomUUID();
    this.texts.set(id, text);
    if (this.texts.size > MAX_KEPT) this.texts.delete(this.texts.keys().next().value as string);
    const uri = vscode.Uri.from({ scheme: SCHEME, path: `/${vscode.l10n.t("GigaChat's reasoning")}.txt`, query: id });
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: true, viewColumn: vscode.ViewColumn.Beside });
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }
}
