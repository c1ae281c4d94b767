import * as vscode from 'vscode';
import { ChunkBoundaries, EmbeddingCache, loadKeywords, queryForModel, saveSearchIndex, WorkspaceIndexer, type ShortcutsPolicy } from '../../core';
import type { ClientProvider } from '../clientProvider';
import { cacheSaved, cacheSaveFailed } from './cacheSaveFailures';
import type { Log } from '../log';
import type { SearchSettings } from './searchSettings';
import { SOURCE_CHUNKER_NAME, sourceChunker } from './sourceChunker';

/**
 * Batches between two saves of the cache while indexing: a window closed or crashed mid-scan loses
 * at most these (and those in flight); each save appends their rows and rewrites the meta file.
 */
const SAVE_EVERY_BATCHES = 8;

/**
 * The indexer of a workspace over its embedding cache in `cacheDirectory`: what earlier windows
 * embedded is reused, and a cache that is missing, broken or of another model starts anew.
 * It keeps the settings it was opened with: a change to them opens a new one (WorkspaceIndex.resetIndexer),
 * and a scan under way goes on with the model its cache holds.
 */
export async function openIndexer(cacheDirectory: vscode.Uri, settings: SearchSettings, clients: ClientProvider, log: Log): Promise<WorkspaceIndexer> {
  const { embeddingsModel, maxRequestsInFlight, batchSize, batchChars, chunkChars } = settings;
  const cache = await EmbeddingCache.load(cacheDirectory.fsPath, embeddingsModel);
  if (cache.loadInfo.state !== 'loaded')
    log.info(
      `Search index: starting a new embedding cache ` +
        `(${cache.loadInfo.state}${'reason' in cache.loadInfo && cache.loadInfo.reason ? `: ${cache.loadInfo.reason}` : ''})`,
    );
  else if (cache.loadInfo.olderFormat !== undefined)
    log.info(`Search index: the embedding cache is of format version ${cache.loadInfo.olderFormat}; it is read as it is and rewritten in the current format`);
  const chunkOptions = { maxChars: chunkChars };
  return new WorkspaceIndexer({
    embed: async (texts, signal) => (await clients.get()).embeddings(texts, { model: embeddingsModel, signal, priority: 'background' }),
    cache,
    maxInFlight: maxRequestsInFlight,
    batchSize,
    batchChars,
    chunkOptions,
    chunker: sourceChunker(log),
    onChunkingFailed: (file, error) =>
      log.warn(`Search index: ${file} could not be cut along its syntax, so it is cut by lines: ${String((error as Error)?.message ?? error)}`),
    // Files whose text is unchanged since an earlier scan are cut as then, without parsing.
    boundaries: await ChunkBoundaries.load(cacheDirectory.fsPath, SOURCE_CHUNKER_NAME, chunkOptions),
    // Chunks whose text is unchanged take their words from the saved keyword index.
    keywords: await loadKeywords(cacheDirectory.fsPath, embeddingsModel),
    saveEvery: SAVE_EVERY_BATCHES,
    onSaveFailed: (error) => cacheSaveFailed(error, log, () => cache.save()),
  });
}

/**
 * The vector of the search query `query` for `indexer`'s index: by the model its cache holds (a
 * vector of another would compare with nothing in it), after that model's query instruction.
 */
export async function embedQuery(indexer: WorkspaceIndexer, clients: ClientProvider, query: string, signal?: AbortSignal): Promise<Float32Array> {
  const model = indexer.cache.model;
  const [vector] = await (await clients.get()).embeddings([queryForModel(model, query)], { model, signal });
  return vector;
}

/**
 * Writes the indexer's cache (see saveSearchIndex for `shortcuts`). `prune` only after a complete
 * scan: before one, the index does not hold every file the cache serves.
 */
export async function saveIndexerCache(indexer: WorkspaceIndexer, prune: boolean, shortcuts: ShortcutsPolicy, log: Log): Promise<void> {
  try {
    await saveSearchIndex(indexer, prune, shortcuts);
    cacheSaved();
  } catch (error) {
    cacheSaveFailed(error, log, () => indexer.cache.save());
  }
}

/** The workspace's indexer, opened on first use and again after a reset (new settings, Clear), or after opening failed. */
export class IndexerSlot {
  private pending?: Promise<WorkspaceIndexer>;
  private resolved?: WorkspaceIndexer;

  constructor(private readonly open: () => Promise<WorkspaceIndexer>) {}

  /** The indexer being opened or open; undefined before the first use. */
  get opening(): Promise<WorkspaceIndexer> | undefined {
    return this.pending;
  }

  /** The indexer once open (what the status bar counts). */
  get opened(): WorkspaceIndexer | undefined {
    return this.resolved;
  }

  get(): Promise<WorkspaceIndexer> {
    if (this.pending) return this.pending;
    const opening = this.open();
    this.pending = opening;
    // One opened after a reset is no longer this slot's.
    opening.then(
      (indexer) => {
        if (this.pending === opening) this.resolved = indexer;
      },
      () => {
        if (this.pending === opening) this.pending = undefined;
      },
    );
    return opening;
  }

  /** The next use opens a new indexer. */
  reset(): void {
    this.pending = undefined;
    this.resolved = undefined;
  }
}
