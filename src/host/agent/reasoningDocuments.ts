import * as vscode from 'vscode';
import { ReadOnlyTexts } from '../readOnlyTexts';

/**
 * A reasoning model's thinking in @gigachat's answers, read on request: VS Code's stable Chat API
 * can neither show thinking nor fold a section (it renders no HTML), so the answer has a button
 * that opens the thinking here, in a read-only editor beside the chat. The text is the model's,
 * shown as plain text, never rendered.
 */
export class ReasoningDocuments implements vscode.Disposable {
  private readonly texts = new ReadOnlyTexts('gigachat-reasoning', () =>
    vscode.l10n.t('This reasoning is no longer kept: it belonged to an answer of an earlier session.'),
  );

  /** Opens `text` (the button's argument) beside the chat. */
  async show(text: unknown): Promise<void> {
    if (typeof text !== 'string' || text.trim() === '') return;
    await this.texts.show(text, `${vscode.l10n.t("GigaChat's reasoning")}.txt`, vscode.ViewColumn.Beside);
  }

  dispose(): void {
    this.texts.dispose();
  }
}
