import * as vscode from 'vscode';
import { ReadOnlyDocuments } from '../readOnlyDocuments';
import type { ChatViewProvider } from './chatViewProvider';
import { notify } from '../notify';

/**
 * GigaChat: Show Last Answer as Plain Text (Alt+F2 in the chat view, as VS Code's accessible view):
 * the chat's last answer in a read-only editor, where a screen reader reads it line by line and
 * the keyboard moves and selects in it as in any file, away from the chat's live, busy page.
 */
export class LastAnswerView implements vscode.Disposable {
  private readonly texts = new ReadOnlyDocuments('gigachat-answer', 50, vscode.l10n.t('This answer is no longer kept: it was shown in an earlier session.'));

  constructor(private readonly chat: ChatViewProvider) {}

  async show(): Promise<void> {
    const text = await this.chat.lastAnswer();
    if (!text) {
      void notify('info', vscode.l10n.t('This chat has no answer yet.'));
      return;
    }
    const document = await vscode.workspace.openTextDocument(this.texts.add(`${vscode.l10n.t("GigaChat's answer")}.md`, text));
    await vscode.window.showTextDocument(document, { preview: true, viewColumn: vscode.ViewColumn.Active });
  }

  dispose(): void {
    this.texts.dispose();
  }
}
