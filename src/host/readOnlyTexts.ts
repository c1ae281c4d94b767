import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';

/** Enough for a long session; the oldest are forgotten first (the document then says so). */
const MAX_KEPT = 50;

/**
 * Texts the extension shows on request in a read-only editor (a reasoning model's thinking, the
 * last answer as plain text): each under a scheme of its own, served from memory, never written
 * to disk and never rendered.
 */
export class ReadOnlyTexts implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly registration: vscode.Disposable;

  constructor(
    private readonly scheme: string,
    /** What a document of an earlier session says: its text is no longer kept. */
    private readonly forgotten: () => string,
  ) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(scheme, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.query) ?? this.forgotten();
  }

  /** Opens `text` as the file `name` (its extension sets the language), in `column`. */
  async show(text: string, name: string, column: vscode.ViewColumn): Promise<void> {
    const id = randomUUID();
    this.texts.set(id, text);
    if (this.texts.size > MAX_KEPT) this.texts.delete(this.texts.keys().next().value as string);
    const document = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: this.scheme, path: `/${name}`, query: id }));
    await vscode.window.showTextDocument(document, { preview: true, viewColumn: column });
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }
}
