import * as vscode from 'vscode';
import type { ClientProvider } from '../clientProvider';
import { Disposable } from '../dispose';
import { offerErrorActions } from '../errors/errorActions';
import type { Log } from '../log';
import type { KeyStore } from '../key/secrets';
import type { SettingsReader } from '../settings/settingsReader';
import type { Prompt, SearchHit } from '../../core';
import { IndexingConsent } from './indexingConsent';
import { IndexStatusBar } from './indexStatusBar';
import { indexWithProgress } from './indexWithProgress';
import { watchWorkspace } from './indexWatcher';
import { searchResultsPrompt } from './searchPrompt';
import { showSearchPicker } from './searchQuickPick';
import { WorkspaceIndex } from './workspaceIndex';
import { unavailableMessage, type SearchUnavailable } from './searchUnavailable';
import { countMessage } from '../countMessage';
import { notify } from '../notify';

export interface SearchServices {
  clients: ClientProvider;
  settings: SettingsReader;
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
  /**
   * Searches without asking the user anything (for tools, VS Code's Chat and codebase context);
   * says why it cannot. While the index is being built it searches what is indexed so far.
   */
  searchQuietly(query: string, k: number, signal?: AbortSignal): Promise<QuietSearch>;
  /** What the search command does before its first search: asks to index (with what would be sent), then indexes. Resolves whether the index is ready. */
  allowIndexing(): Promise<boolean>;
  /** At the start of a window: goes on with the indexing the last one left unfinished, if the workspace agreed to it and can be searched; asks nothing. */
  resumeUnfinished(): Promise<void>;
  /** The window is closing: writes what indexing embedded and is not on disk yet. */
  saveProgress(): Promise<void>;
}

/**
 * The results of a search that asks nothing (`indexedFiles`: the index was still being built, and
 * held this many files), or what the user must do first (`otherModel`: agree to index again with
 * the embeddings model the setting names now).
 */
export type QuietSearch = { kind: 'hits'; hits: SearchHit[]; indexedFiles?: number } | { kind: SearchUnavailable };

/**
 * Semantic search of the workspace: the search command with its results picker, Rebuild and Clear
 * Index, the status bar item, and the watcher that keeps the index current once it exists.
 */
export class SemanticSearch extends Disposable implements SemanticSearchCommands {
  private readonly index: WorkspaceIndex;
  private readonly consent: IndexingConsent;
  private watching = false;

  constructor(
    context: vscode.ExtensionContext,
    private readonly services: SearchServices,
  ) {
    super();
    const { log } = services;
    this.index = this._register(
      new WorkspaceIndex(context.storageUri ?? context.globalStorageUri, services.clients, services.settings, log, context.workspaceState),
    );
    const { index } = this;
    this.consent = this._register(new IndexingConsent(context.workspaceState, services.settings));
    this._register(
      index.onDidChangeState((state) => {
        if (state.phase !== 'ready' || this.watching) return;
        this.watching = true;
        this._register(watchWorkspace(index, log));
      }),
    );
    this._register(new IndexStatusBar(index, services.clients.scheduler));
    this._register(
      services.settings.onDidChange((change) => {
        if (change.callsFor('searchIndexer')) index.resetIndexer();
        else if (change.callsFor('searchFiles')) index.invalidate('settings changed');
      }),
    );
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => index.invalidate('workspace folders changed')));
  }

  readonly search = async (query?: unknown): Promise<void> => {
    const { index, consent, services } = this;
    const { log } = services;
    if (!(await canIndex(services.keys, log))) return;
    if (!(await indexWithProgress(index, consent, log, () => this.search(query)))) return;
    showSearchPicker({
      index,
      log,
      initialQuery: typeof query === 'string' ? query : undefined,
      searchAnew: this.search,
      askAbout: async (question, hits) => {
        const prompt = await searchResultsPrompt(question, hits);
        if (prompt) await services.ask(prompt);
        else void notify('warning', vscode.l10n.t('The files of these results were deleted or moved after the search. Search again.'));
      },
    });
  };

  readonly searchQuietly = async (query: string, k: number, signal?: AbortSignal): Promise<QuietSearch> => {
    const { index, consent, services } = this;
    const blocked = await searchBlocker(services.keys);
    if (blocked) return { kind: blocked };
    // Nothing is listed, indexed or sent before the user has agreed, in the dialog the search command shows.
    const notAgreed = (): QuietSearch => ({ kind: consent.otherModel === undefined ? 'noConsent' : 'otherModel' });
    if (!consent.granted) return notAgreed();
    // Building already: what it has indexed answers now, rather than after it (minutes, in a large workspace).
    if (index.state.phase === 'indexing') {
      const indexedFiles = index.state.progress.files;
      return { kind: 'hits', hits: await index.search(query, k, signal), indexedFiles };
    }
    const neverAsk = {
      get granted() {
        return consent.granted;
      },
      ask: () => Promise.resolve(false),
    };
    if (!(await index.ensureCurrent({ consent: neverAsk, signal }))) return notAgreed();
    return { kind: 'hits', hits: await index.search(query, k, signal) };
  };

  readonly allowIndexing = async (): Promise<boolean> => {
    const { index, consent, services } = this;
    if (!(await canIndex(services.keys, services.log))) return false;
    return indexWithProgress(index, consent, services.log, this.allowIndexing);
  };

  readonly resumeUnfinished = async (): Promise<void> => {
    const { index, consent, services } = this;
    if ((await searchBlocker(services.keys)) || !consent.granted) return;
    services.log.info('Search index: continuing the indexing the last window left unfinished');
    await indexWithProgress(index, consent, services.log, this.resumeUnfinished);
  };

  readonly saveProgress = (): Promise<void> => this.index.saveProgress();

  readonly rebuild = async (): Promise<void> => {
    const { index, consent, services } = this;
    if (!(await canIndex(services.keys, services.log))) return;
    index.invalidate('rebuild requested');
    if (!(await indexWithProgress(index, consent, services.log, this.rebuild))) return;
    if (index.state.phase === 'ready')
      void notify('info', countMessage('The search index is up to date: {0|# file|# files}, {1|# chunk|# chunks}.', index.state.files, index.state.chunks));
  };

  readonly clear = async (): Promise<void> => {
    // The agreement goes first: a search started while the index is deleted asks again.
    await this.consent.revoke();
    await this.index.clear();
    void notify('info', vscode.l10n.t('The search index of this workspace was deleted. The next search asks again before sending any file.'));
  };
}

/** What stops the workspace from being indexed and searched (a folder, trust, a key), or undefined when nothing does. */
async function searchBlocker(keys: KeyStore): Promise<Exclude<SearchUnavailable, 'noConsent' | 'otherModel'> | undefined> {
  if (!vscode.workspace.workspaceFolders?.length) return 'noFolder';
  if (!vscode.workspace.isTrusted) return 'restricted';
  if (!(await keys.has())) return 'noKey';
  return undefined;
}

/** Indexing needs a folder, a trusted workspace and a key; says what is missing, with the button that fixes it. */
async function canIndex(keys: KeyStore, log: Log): Promise<boolean> {
  const blocked = await searchBlocker(keys);
  if (blocked) {
    const { message, action } = unavailableMessage(blocked);
    await offerErrorActions('error', message, [action], log);
  }
  return blocked === undefined;
}
