import * as vscode from 'vscode';
import { messageOf, IgnoreRules, indexingCancelled, isDimensionsChanged, SharedRun, type IndexProgress, type SearchHit } from '../../core';
import type { ClientProvider } from '../clientProvider';
import { Disposable } from '../dispose';
import type { Log } from '../log';
import { planBatch, type PathChange } from './changeBatcher';
import { mayMatter, moveAtOrBelow, planFileUpdate, removeAtOrBelow, type ScanScope } from './fileUpdates';
import { embedQuery, IndexerSlot, openIndexer, saveIndexerCache } from './indexerCache';
import * as states from './indexLifecycle';
import { OutsideRulesWatcher } from './outsideRulesWatcher';
import { describeLink, indexSelection, selectWorkspaceFiles } from './scanSteps';
import type { BuildOptions, IndexState, UploadConsent } from './indexState';
import { summarizeUpload } from './uploadSummary';
import { readSearchSettings, type SearchSettings } from './searchSettings';
import type { SettingsReader } from '../settings/settingsReader';
import { locateIn } from './workspaceFolderSource';
import { UnfinishedRecord } from './unfinishedIndex';

/** How long after the last background update the cache is written. */
const SAVE_DELAY_MS = 2000;

/**
 * Scans in a row when the rules keep changing while one runs. Another pass costs little (unchanged
 * files come from the embedding cache), but a workspace that rewrites a `.gitignore` all the time
 * must not keep a search waiting: after these, the search goes on and the next one scans again.
 */
const MAX_PASSES = 3;

/**
 * More changed files than this at once (a branch checkout, an unpacked archive) make the next
 * search scan, instead of one update each: each costs a few file system calls (one `findFiles`),
 * where a scan lists the workspace once and takes unchanged files from the embedding cache.
 */
const MAX_SINGLE_UPDATES = 100;

/**
 * The workspace's semantic index: which files are in it, their vectors (in memory, backed by the
 * embedding cache in workspace storage), and keeping both current. A full scan runs on the first
 * search of a window and whenever something that decides the set of files changed (settings, a
 * `.gitignore`); in between, saved files are re-indexed one by one, and only their changed chunks
 * are embedded.
 */
export class WorkspaceIndex extends Disposable {
  private readonly indexer = new IndexerSlot(() => openIndexer(this.cacheDirectory, this.settings, this.clients, this.log));
  /** How many times the settings made a new indexer (another model needs the user's agreement again). */
  private indexerChanges = 0;
  private settings: SearchSettings;
  private lifecycle: states.IndexLifecycle<ScanScope>;
  private readonly scans = new SharedRun<boolean>();
  private saveTimer?: ReturnType<typeof setTimeout>;
  private readonly unfinished: UnfinishedRecord;
  private readonly stateChanged = this._register(new vscode.EventEmitter<IndexState>());
  private readonly outsideRules = this._register(new OutsideRulesWatcher((file) => this.invalidate(`${file} changed`)));
  readonly onDidChangeState = this.stateChanged.event;

  constructor(
    private readonly storage: vscode.Uri,
    private readonly clients: ClientProvider,
    private readonly settingsReader: Pick<SettingsReader, 'get'>,
    private readonly log: Log,
    workspaceState: vscode.Memento,
  ) {
    super();
    this.settings = readSearchSettings(settingsReader);
    this.unfinished = new UnfinishedRecord(workspaceState);
    this.lifecycle = this.unfinished.lastWindow;
    this._register({ dispose: () => clearTimeout(this.saveTimer) });
  }

  get state(): IndexState {
    return states.shownState(this.lifecycle, this.indexer.opened?.stats);
  }

  /** Whether the next search needs a full scan (nothing indexed in this window yet, or the rules changed). */
  get needsScan(): boolean {
    return states.needsScan(this.lifecycle);
  }

  /**
   * Brings the index up to date with a full scan if one is due; joins a scan already running, and
   * scans again when the settings or ignore rules changed while it ran. Resolves false when the
   * user declined to send the files; rejects with the run's error (what it finished stays indexed).
   */
  async ensureCurrent(options: BuildOptions): Promise<boolean> {
    const { consent } = options;
    for (let pass = 0; states.needsScan(this.lifecycle) && pass < MAX_PASSES; pass++) {
      // Cleared after a pass: the user withdrew the files (and the consent); no pass sends them again.
      if (pass > 0 && this.lifecycle.kind === 'cleared') throw indexingCancelled();
      const indexerBefore = this.indexerChanges;
      if (!(await this.scans.join((signal) => this.fullScan(consent, signal), options.signal))) return false;
      // Nothing to send, so nothing agreed to: the index stays due, and the next search looks (and asks) again. A new model: the next pass asks.
      if (!consent.granted && this.indexerChanges === indexerBefore) return true;
    }
    return true;
  }

  /** The `k` chunks closest to `query` in meaning and words (hybrid search), best first. */
  async search(query: string, k: number, signal?: AbortSignal): Promise<SearchHit[]> {
    const indexer = await this.indexer.get();
    const vector = await embedQuery(indexer, this.clients, query, signal);
    try {
      return indexer.search(vector, k, query);
    } catch (error) {
      if (!isDimensionsChanged(error)) throw error;
      // The model changed under its name since the index was built: nothing in it compares with the query.
      this.log.warn(`Search index: ${error.message} The index is built again with the next search.`);
      indexer.discardVectors();
      this.invalidate('the embeddings model changed the length of its vectors');
      throw error;
    }
  }

  /**
   * Files were created, saved or deleted (a batch of the watcher's events, each path once). A few
   * are settled one by one; more than {@link MAX_SINGLE_UPDATES} that may matter make the next
   * search scan. While a scan runs they are also kept, to be settled again once it ends.
   */
  async filesChanged(changes: ReadonlyMap<string, PathChange>): Promise<void> {
    this.setLifecycle(states.noteChanges(this.lifecycle, changes));
    const scope = states.currentScope(this.lifecycle);
    const plan = scope ? planBatch(changes, (key) => mayMatter(scope, key), MAX_SINGLE_UPDATES) : { kind: 'each' as const, changes: [...changes] };
    if (plan.kind === 'scan') return this.invalidate(`${plan.count} files changed at once`);
    await Promise.all(
      plan.changes.map(([key, change]) => {
        const uri = vscode.Uri.parse(key);
        return (change === 'deleted' ? this.fileDeleted(uri) : this.fileChanged(uri)).catch((error) => this.log.warn(`Search index: ${messageOf(error)}`));
      }),
    );
  }

  /** A file was created or saved: re-index it if it belongs in the index, forget it if it no longer does. */
  private async fileChanged(uri: vscode.Uri): Promise<void> {
    // Not current: the scan due or under way reads the file (one under way has kept the change for after it).
    const state = this.lifecycle;
    if (state.kind !== 'current' || !this.indexer.opening) return;
    const selection = state.scope;
    const located = locateIn(selection.rules.keys(), uri);
    if (!located) return;
    const { source, path } = located;
    if (IgnoreRules.holdsRules(path)) return this.invalidate(`${path} changed`);
    const rules = selection.rules.get(source);
    if (!rules) return;
    const indexer = await this.indexer.opening;
    const update = await planFileUpdate(indexer, { source, path, rules }, this.settings);
    // The rules or the indexer changed meanwhile, so what was decided may be wrong: the scan that
    // is due, under way or done since began after this change, and reads the file itself.
    if (this.lifecycle !== state) return;
    if (update.kind === 'folder') {
      if (update.bringsFiles) this.invalidate(`${path}/ appeared`);
      return;
    }
    const key = source.keyOf(path);
    if (update.kind === 'link') {
      this.log.info(`Search index: ${path} left out, unread: ${describeLink(update.link)}`);
      if (removeAtOrBelow(indexer, key)) this.updated();
      return;
    }
    if (update.kind === 'remove') {
      if (indexer.removeFile(key)) this.updated();
      return;
    }
    try {
      const result = await indexer.updateFile(key, update.text);
      if (result.embeddedChunks > 0) this.log.info(`Search index: ${path} re-indexed, ${result.embeddedChunks} chunks embedded`);
      this.updated();
    } catch (error) {
      this.log.warn(`Search index: could not re-index ${path}: ${messageOf(error)}`);
      this.invalidate('a file could not be re-indexed');
    }
  }

  /** A file or folder was deleted: everything at or below it leaves the index, in any state. */
  private async fileDeleted(uri: vscode.Uri): Promise<void> {
    const scope = states.currentScope(this.lifecycle);
    const located = scope && locateIn(scope.rules.keys(), uri);
    if (located && IgnoreRules.holdsRules(located.path)) this.invalidate(`${located.path} deleted`);
    if (!this.indexer.opening) return;
    if (removeAtOrBelow(await this.indexer.opening, uri.toString())) this.updated();
  }

  /** A file or folder was renamed in VS Code: its chunks move without being embedded again. */
  async fileRenamed(from: vscode.Uri, to: vscode.Uri): Promise<void> {
    // A scan under way may have listed the old paths and not read them yet: only a new scan sees the new ones.
    if (this.lifecycle.kind === 'scanning') return this.invalidate('files were renamed while the workspace was scanned');
    if (!this.indexer.opening) return;
    const moved = moveAtOrBelow(await this.indexer.opening, from.toString(), to.toString());
    if (moved.length > 0) this.updated();
    // Whether the new place is indexed at all (ignore rules, size) is settled like any change.
    await this.filesChanged(new Map(moved.map((key) => [key, 'changed'])));
  }

  /** The next search scans the workspace again (settings or ignore files changed). Nothing is re-embedded that did not change. */
  invalidate(reason: string): void {
    if (states.invalidationIsNews(this.lifecycle)) this.log.info(`Search index: full scan due (${reason})`);
    this.setLifecycle(states.invalidate(this.lifecycle));
  }

  /** The embeddings model or batching changed: a new indexer (and, for a new model, a new cache) on the next search. */
  resetIndexer(): void {
    this.settings = readSearchSettings(this.settingsReader);
    this.indexer.reset();
    this.indexerChanges++;
    this.invalidate('search settings changed');
  }

  /** Stops a scan under way, forgets the index and deletes the cached vectors from disk. */
  async clear(): Promise<void> {
    // At once, not after the awaits below: a file saved meanwhile must not be sent (an update under way sees the new state).
    this.invalidate('the index is being cleared');
    this.setLifecycle(states.CLEARED);
    this.scans.stop();
    await this.scans.current?.catch(() => undefined);
    const indexer = await this.indexer.opening?.catch(() => undefined);
    indexer?.clear();
    this.indexer.reset();
    this.outsideRules.stop();
    clearTimeout(this.saveTimer);
    await vscode.workspace.fs.delete(this.cacheDirectory, { recursive: true, useTrash: false }).then(undefined, () => undefined);
    this.changed();
  }

  /**
   * The window is closing (deactivation): writes what the cache holds that is not on disk yet, so that only the
   * batches in flight are embedded again. A scan under way is shown unfinished in the next window, which resumes it.
   */
  async saveProgress(): Promise<void> {
    this.unfinished.freeze();
    // No batch starts any more (the host is going); the ones in flight are given up, and the scan saves what it has.
    this.scans.stop();
    await this.scans.current?.catch(() => undefined);
    clearTimeout(this.saveTimer);
    const indexer = this.indexer.opened;
    // What this window parsed is written too, so that the next parses nothing unchanged.
    if (indexer && (indexer.cache.dirty || indexer.shortcutLag > 0)) await saveIndexerCache(indexer, this.lifecycle.kind === 'current', 'changed', this.log);
  }

  /**
   * One full scan. Files saved or deleted while it runs are settled again once it ends (it may have
   * read them before the change); a change to the rules during it leaves the index stale.
   */
  private async fullScan(consent: UploadConsent, signal: AbortSignal): Promise<boolean> {
    const scanning = states.startScan<ScanScope>(this.lifecycle);
    this.setLifecycle(scanning);
    let scope: ScanScope | undefined;
    try {
      scope = await this.scanFiles(consent, signal, scanning.scan);
    } finally {
      // Until the user has agreed, no saved file is sent either (fileChanged waits for a scan that asks).
      const ended = states.endScan(this.lifecycle, scanning.scan, scope && { scope, agreed: consent.granted }, signal.aborted);
      this.setLifecycle(ended.state);
      await this.filesChanged(ended.changes);
    }
    return scope !== undefined;
  }

  /** The scope the scan found, or undefined when the user declined to send the files. */
  private async scanFiles(consent: UploadConsent, signal: AbortSignal, scan: symbol): Promise<ScanScope | undefined> {
    this.settings = readSearchSettings(this.settingsReader);
    const indexer = await this.indexer.get();
    const selection = await selectWorkspaceFiles(this.settings, signal, this.log);
    if (!consent.granted) {
      const summary = await summarizeUpload(selection, indexer, this.settings, signal);
      // Cancelled while the files were counted: no question about sending them.
      if (signal.aborted) throw indexingCancelled();
      if (!(await consent.ask(summary))) return undefined;
    }

    const totalFiles = selection.files.length;
    const indexing = (progress: IndexProgress) => this.setLifecycle(states.scanProgressed(this.lifecycle, scan, { progress, totalFiles }));
    indexing({ files: 0, chunks: 0, requests: 0, cachedChunks: 0, embeddedChunks: 0, rateLimited: 0 });
    await indexSelection(indexer, selection, this.settings.maxFileBytes, { signal, onProgress: indexing, log: this.log });
    this.outsideRules.watch(selection.outsideRuleFiles);
    return selection;
  }

  private get cacheDirectory(): vscode.Uri {
    return vscode.Uri.joinPath(this.storage, 'embeddings');
  }

  /** A background update changed the index: show it, and write the cache once updates settle. */
  private updated(): void {
    void this.indexer.opening?.then((indexer) => {
      this.changed();
      clearTimeout(this.saveTimer);
      this.saveTimer = setTimeout(() => void saveIndexerCache(indexer, this.lifecycle.kind === 'current', 'stale', this.log), SAVE_DELAY_MS);
    });
  }

  private setLifecycle(next: states.IndexLifecycle<ScanScope>): void {
    if (next === this.lifecycle) return;
    this.lifecycle = next;
    this.changed();
  }

  /** What the index shows changed: the status bar, and the record the next window reads if this one closes now. */
  private changed(): void {
    const shown = this.state;
    this.unfinished.note(shown, this.lifecycle);
    this.stateChanged.fire(shown);
  }
}
