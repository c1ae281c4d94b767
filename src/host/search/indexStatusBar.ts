import * as vscode from 'vscode';
import { commandId } from '../commands';
import { Disposable } from '../dispose';
import type { IndexState } from './indexState';
import type { WorkspaceIndex } from './workspaceIndex';

/** Whose index it is, beside VS Code's and other extensions' items: the name is not translated. */
const BRAND = 'GigaChat · ';

/**
 * The index's state at a glance: indexing progress, or how much is indexed. Hidden until the
 * index is first used in this window; a click opens semantic search.
 */
export class IndexStatusBar extends Disposable {
  private readonly item = this._register(vscode.window.createStatusBarItem('gigachat.searchIndex', vscode.StatusBarAlignment.Left, 50));

  constructor(index: WorkspaceIndex) {
    super();
    this.item.name = vscode.l10n.t('GigaChat Search Index');
    this.item.command = commandId('semanticSearch');
    this._register(index.onDidChangeState((state) => this.show(state)));
    this.show(index.state);
  }

  private show(state: IndexState): void {
    const format = (value: number) => value.toLocaleString(vscode.env.language);
    switch (state.phase) {
      case 'idle':
        this.item.hide();
        return;
      case 'indexing':
        this.item.text = `$(sync~spin) ${BRAND}${vscode.l10n.t('Indexing {0}/{1}', format(state.progress.files), format(state.totalFiles))}`;
        this.item.tooltip = vscode.l10n.t(
          'GigaChat is indexing the workspace: {0} of {1} files, {2} chunks, {3} requests.',
          format(state.progress.files),
          format(state.totalFiles),
          format(state.progress.chunks),
          format(state.progress.requests),
        );
        this.item.backgroundColor = undefined;
        break;
      case 'ready':
        this.item.text = `$(search) ${BRAND}${vscode.l10n.t('{0} files indexed', format(state.files))}`;
        this.item.tooltip = vscode.l10n.t(
          'GigaChat semantic search: {0} files, {1} chunks indexed. Click to search.',
          format(state.files),
          format(state.chunks),
        );
        this.item.backgroundColor = undefined;
        break;
      case 'incomplete':
        this.item.text = `$(warning) ${BRAND}${vscode.l10n.t('{0} files indexed', format(state.files))}`;
        this.item.tooltip = vscode.l10n.t(
          'GigaChat semantic search: indexing did not finish ({0} files, {1} chunks indexed). The next search continues it.',
          format(state.files),
          format(state.chunks),
        );
        this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
        break;
    }
    this.item.show();
  }
}
