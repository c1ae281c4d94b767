import * as vscode from 'vscode';
import type { ClientProvider } from '../clientProvider';
import { showErrorNotification } from '../errors';
import type { Log } from '../log';
import type { KeyStore } from '../secrets';
import type { Prompt } from '../chat/chatController';
import { ServiceError } from '../../core';
import { IndexingConsent } from './indexingConsent';
import { IndexStatusBar } from './indexStatusBar';
import { indexWithProgress } from './indexWithProgress';
import { watchWorkspace } from './indexWatcher';
import { searchResultsPrompt } from './searchPrompt';
import { showSearchPicker } from './searchQuickPick';
import { affectsFileSet, affectsIndexer } from './searchSettings';
import { WorkspaceIndex } from './workspaceIndex';

export interface SearchServices {
  clients: ClientProvider;
  keys: KeyStore;
  log: Log;
  /** Opens the chat and sends a turn. */
  ask: (prompt: Prompt) => Promise<void>;
}

/** What the search commands do (extension.ts registers them). */
export interface SemanticSearchCommands {
  /** Searches for `query` (or asks for one), building the index first if needed. */
  search(query?: unknown): Promise<void>;
  rebuild(): Promise<void>;
  clear(): Promise<void>;
}

/**
 * Semantic search of the workspace: the search command with its results picker, Rebuild and Clear
 * Index, the status bar item, and the watcher that keeps the index current once it exists.
 */
export function semanticSearch(context: vscode.ExtensionContext, services: SearchServices): SemanticSearchCommands {
  const { log } = services;
  const index = new WorkspaceIndex(context.storageUri ?? context.globalStorageUri, services.clients, log);
  const consent = new IndexingConsent(context.workspaceState);
  let watcher: vscode.Disposable | undefined;
  const startWatching = index.onDidChangeState((state) => {
    if (state.phase !== 'ready' || watcher) return;
    watcher = watchWorkspace(index, log);
    context.subscriptions.push(watcher);
  });

  const search = async (query?: unknown) => {
    if (!(await canIndex(services.keys, log))) return;
    const retry = () => vscode.commands.executeCommand('gigachat.semanticSearch', query);
    if (!(await indexWithProgress(index, consent, log, retry))) return;
    showSearchPicker({
      index,
      log,
      initialQuery: typeof query === 'string' ? query : undefined,
      searchAnew: search,
      askAbout: async (question, hits) => {
        const prompt = await searchResultsPrompt(question, hits);
        if (prompt) await services.ask(prompt);
        else void vscode.window.showWarningMessage(vscode.l10n.t('The files of these results were deleted or moved after the search. Search again.'));
      },
    });
  };

  const rebuild = async () => {
    if (!(await canIndex(services.keys, log))) return;
    index.invalidate('rebuild requested');
    if (!(await indexWithProgress(index, consent, log, rebuild))) return;
    if (index.state.phase === 'ready') void vscode.window.showInformationMessage(vscode.l10n.t('The search index is up to date: {0} files, {1} chunks.', index.state.files, index.state.chunks));
  };

  const clear = async () => {
    // The agreement goes first: a search started while the index is deleted asks again.
    await consent.revoke();
    await index.clear();
    void vscode.window.showInformationMessage(vscode.l10n.t('The search index of this workspace was deleted. The next search asks again before sending any file.'));
  };

  context.subscriptions.push(
    index,
    startWatching,
    new IndexStatusBar(index),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (affectsIndexer(event)) index.resetIndexer();
      else if (affectsFileSet(event)) index.invalidate('settings changed');
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => index.invalidate('workspace folders changed')),
  );
  return { search, rebuild, clear };
}

/** Indexing needs a folder, a trusted workspace and a key; says what is missing, with the button that fixes it. */
async function canIndex(keys: KeyStore, log: Log): Promise<boolean> {
  if (!vscode.workspace.workspaceFolders?.length) {
    const open = vscode.l10n.t('Open Folder');
    if ((await vscode.window.showInformationMessage(vscode.l10n.t('Semantic search works on a folder: open one first.'), open)) === open) {
      await vscode.commands.executeCommand('workbench.action.files.openFolder');
    }
    return false;
  }
  if (!vscode.workspace.isTrusted) {
    const manage = vscode.l10n.t('Manage Workspace Trust');
    const chosen = await vscode.window.showWarningMessage(
      vscode.l10n.t("Semantic search is off in Restricted Mode: it would send this workspace's files to the GigaChat service. Trust the workspace to use it."),
      manage,
    );
    if (chosen === manage) await vscode.commands.executeCommand('workbench.trust.manage');
    return false;
  }
  if (!(await keys.has())) {
    await showErrorNotification(new ServiceError('auth', 'No GigaChat authorization key is set.', { code: 'NO_KEY' }), log);
    return false;
  }
  return true;
}
