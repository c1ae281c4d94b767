import * as vscode from 'vscode';
import { commandId } from '../commands';
import { Disposable } from '../dispose';
import type { IndexState } from './indexState';
import type { WorkspaceIndex } from './workspaceIndex';
import { countMessage } from '../countMessage';
import type { StreamActivity, StreamScheduler } from '../../core';

/** Whose index it is, beside VS Code's and other extensions' items: the name is not translated. */
const BRAND = 'GigaChat · ';

/**
 * The index's state at a glance: indexing progress, or how much is indexed. Hidden until the
 * index is first used in this window; a click opens semantic search.
 */
export class IndexStatusBar extends Disposable {
  private readonly item = this._register(vscode.window.createStatusBarItem('gigachat.searchIndex', vscode.StatusBarAlignment.Left, 50));

  private state: IndexState;
  private paused = false;

  constructor(index: WorkspaceIndex, scheduler?: StreamScheduler) {
    super();
    this.item.name = vscode.l10n.t('GigaChat Search Index');
    this.item.command = commandId('semanticSearch');
    this.state = index.state;
    this._register(index.onDidChangeState((state) => this.show((this.state = state))));
    if (scheduler) this._register({ dispose: scheduler.onDidChange((activity) => this.follow(activity)) });
    this.show(index.state);
  }

  /** Indexing is paused while a batch waits for the stream that an answer or a suggestion holds. */
  private follow(activity: StreamActivity): void {
    const paused =
      activity.waiting.background > 0 && activity.serving.background === 0 && activity.serving.now + activity.serving.typing + activity.waiting.now > 0;
    if (paused === this.paused) return;
    this.paused = paused;
    this.show(this.state);
  }

  private show(state: IndexState): void {
    switch (state.phase) {
      case 'idle':
        this.item.hide();
        return;
      case 'indexing':
        if (this.paused) {
          this.item.text = `$(debug-pause) ${BRAND}${countMessage('Indexing paused {0|#}/{1|#}', state.progress.files, state.totalFiles)}`;
          this.item.tooltip = vscode.l10n.t("Indexing waits while GigaChat answers you (the account's streams are in use); it resumes by itself.");
          this.item.backgroundColor = undefined;
          break;
        }
        this.item.text = `$(sync~spin) ${BRAND}${countMessage('Indexing {0|#}/{1|#}', state.progress.files, state.totalFiles)}`;
        this.item.tooltip = countMessage(
          'GigaChat is indexing the workspace: {0|#} of {1|# file|# files}, {2|# chunk|# chunks}, {3|# request|# requests}.',
          state.progress.files,
          state.totalFiles,
          state.progress.chunks,
          state.progress.requests,
        );
        this.item.backgroundColor = undefined;
        break;
      case 'ready':
        this.item.text = `$(search) ${BRAND}${countMessage('{0|# file|# files} indexed', state.files)}`;
        this.item.tooltip = countMessage(
          'GigaChat semantic search: {0|# file|# files}, {1|# chunk|# chunks} indexed. Click to search.',
          state.files,
          state.chunks,
        );
        this.item.backgroundColor = undefined;
        break;
      case 'incomplete':
        this.item.text = `$(warning) ${BRAND}${countMessage('{0|#} of {1|# file|# files} indexed', state.files, state.totalFiles)}`;
        this.item.tooltip = countMessage(
          'GigaChat semantic search: indexing did not finish ({0|#} of {1|# file|# files} indexed). The next search continues it.',
          state.files,
          state.totalFiles,
        );
        this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
        break;
    }
    this.item.show();
  }
}
