import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';

/**
 * Texts the extension shows as documents of a scheme of its own (a report, a list of files, a
 * model's reasoning): read-only and never modified, so closing one never asks to save it, unlike
 * an untitled document. Each text is a document of its own, so one never shows another's text
 * when VS Code reads it again; past `kept`, the oldest are forgotten.
 */
export class ReadOnlyDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly registration: vscode.Disposable;

  /** @param forgotten what a document shows once its text is forgotten (an editor restored after a reload) */
  constructor(
    private readonly scheme: string,
    private readonly kept: number,
    private readonly forgotten = '',
  ) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(scheme, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.query) ?? this.forgotten;
  }

  /** The document of `text`, titled `name` (whose extension, `.md` or `.txt`, gives its language). */
  add(name: string, text: string): vscode.Uri {
    const id = randomUUID();
    this.texts.set(id, text);
    if (this.texts.size > this.kept) this.texts.delete(this.texts.keys().next().value as string);
    return vscode.Uri.from({ scheme: this.scheme, path: `/${name}`, query: id });
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }
}
