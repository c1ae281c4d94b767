import { AdaptiveLimiter, defaultRateLimitPolicy, type EmbedFunction } from './adaptiveLimiter';
import type { Chunk, ChunkOptions } from './syntax/chunker';
import { Checkpoints } from './cache/checkpoints';
import { ReusingChunker, type ChunkBoundaries } from './syntax/chunkBoundaries';
import { ChunkStore } from './chunkStore';
import { dimensionsChanged, isDimensionsChanged } from './cache/dimensionsChanged';
import type { EmbeddingCache } from './cache/embeddingCache';
import { IndexRun } from './indexRun';
import type {
  EmbeddingCounters,
  IndexedFile,
  IndexerStats,
  IndexRunOptions,
  IndexRunResult,
  SearchHit,
  SourceFile,
  WorkspaceIndexerOptions,
} from './indexerTypes';
import { PathVersions } from './cache/pathVersions';
import { lineChunker, withLineFallback, type SourceChunker } from './syntax/syntaxChunker';

export type { RateLimitPolicy } from './adaptiveLimiter';
export type {
  IndexedChunk,
  IndexedFile,
  IndexerStats,
  IndexProgress,
  IndexRunOptions,
  IndexRunResult,
  SearchHit,
  SourceFile,
  WorkspaceIndexerOptions,
} from './indexerTypes';

/**
 * Keeps a workspace's files searchable by meaning: chunks each file, finds each chunk's vector in the
 * embedding cache or embeds it, and remembers which chunks each file has. No file system access:
 * the caller hands files in (and reports changes, removals and renames).
 *
 * Embedding requests go out in batches, at most `maxInFlight` at a time across everything this
 * indexer does. The limit adapts: a 429 (`rateLimit` ServiceError) halves it (down to 1), pauses
 * new requests for the `Retry-After` the service asked for (else an exponential backoff) and retries
 * that batch; a run of successes grows it back one step at a time. Pass an `embed` that does not
 * retry 429 itself (a client with `maxRetries: 0`) to let this adapt at once, or keep the client's
 * retries and let this handle what still fails.
 *
 * Runs are resumable: every vector that arrives goes into the cache at once, and a file's record is
 * replaced only when all of its chunks have vectors. A cancelled or failed run therefore leaves the
 * finished files indexed (and the old record of an unfinished one), and a rerun embeds only what is
 * still missing. With `saveEvery` the cache is saved every few batches, so this holds across a
 * window closed or crashed mid-run too; save it (`cache.save()`) when a run ends; `liveKeys()` is what to pass to
 * `cache.prune` so the cache forgets text no file has any more.
 */
export class WorkspaceIndexer {
  readonly cache: EmbeddingCache;
  /** Where files were cut: save it with the cache, and `retain` the indexed paths after a full scan. */
  readonly boundaries?: ChunkBoundaries;
  private readonly embed: EmbedFunction;
  private readonly batchSize: number;
  private readonly batchChars: number;
  private readonly chunkOptions: ChunkOptions;
  private readonly chunker: SourceChunker;
  private readonly limiter: AdaptiveLimiter;
  private readonly store: ChunkStore;
  private readonly versions = new PathVersions();
  private readonly totals: EmbeddingCounters = { requests: 0, cachedChunks: 0, embeddedChunks: 0, rateLimited: 0 };
  private readonly checkpoints: Checkpoints;
  /** Files parsed by then, and files removed since, when the keyword index and boundaries were last saved. */
  private shortcutsSavedAt = { parsed: 0, removed: 0 };

  constructor(options: WorkspaceIndexerOptions) {
    this.embed = options.embed;
    this.cache = options.cache;
    this.batchSize = Math.max(1, options.batchSize ?? 32);
    this.batchChars = Math.max(1, options.batchChars ?? 48_000);
    this.chunkOptions = options.chunkOptions ?? {};
    this.boundaries = options.boundaries;
    const chunker = withLineFallback(options.chunker ?? lineChunker, options.onChunkingFailed ?? (() => undefined));
    this.chunker = options.boundaries ? new ReusingChunker(chunker, options.boundaries) : chunker;
    this.store = new ChunkStore(options.cache, options.previewChars ?? 160, options.keywords);
    const maxInFlight = Math.max(1, Math.floor(options.maxInFlight ?? 2));
    this.limiter = new AdaptiveLimiter(maxInFlight, { ...defaultRateLimitPolicy, ...options.rateLimit });
    this.checkpoints = new Checkpoints(options.cache, Math.max(0, Math.floor(options.saveEvery ?? 0)), options.onSaveFailed ?? (() => undefined));
  }

  /** Settles once the last checkpoint's save (see `saveEvery`) has. */
  get checkpointSaved(): Promise<void> {
    return this.checkpoints.settled;
  }

  /** The chunks indexing makes of `file`, as it cuts them (to count what it would send). */
  chunksOf(file: SourceFile): Promise<Chunk[]> {
    return this.chunker.chunk(file.text, file.path, this.chunkOptions);
  }

  /**
   * Indexes `files` (read lazily: a slow async source is fine, and only a few batches are ever
   * waiting). Files already indexed are replaced. Resolves with the run's numbers; rejects with a
   * `cancelled` ServiceError when `signal` aborts, or with the first error that is not a 429 (or a
   * 429 that outlasted the retries), after the requests in flight have settled. Either way what was
   * finished stays (see the class comment).
   */
  async indexFiles(files: AsyncIterable<SourceFile> | Iterable<SourceFile>, options: IndexRunOptions = {}): Promise<IndexRunResult> {
    const run = new IndexRun(
      {
        cache: this.cache,
        store: this.store,
        versions: this.versions,
        limiter: this.limiter,
        embed: this.embed,
        batchLimits: { maxItems: this.batchSize, maxChars: this.batchChars },
        chunkOptions: this.chunkOptions,
        chunker: this.chunker,
        totals: this.totals,
        checkpoints: this.checkpoints,
      },
      options,
    );
    return run.execute(files);
  }

  /**
   * Indexes the whole workspace: `files` gives its files, read afresh on each call. When the model's
   * vectors turn out to be of another length than the cached ones (the service changed the model
   * behind its name), every cached vector is discarded, `onVectorsDiscarded` is told why, and the
   * files are indexed again, once. Otherwise as `indexFiles`.
   */
  async indexAll(
    files: () => AsyncIterable<SourceFile> | Iterable<SourceFile>,
    options: IndexRunOptions & { onVectorsDiscarded?: (reason: string) => void } = {},
  ): Promise<IndexRunResult> {
    try {
      return await this.indexFiles(files(), options);
    } catch (error) {
      if (!isDimensionsChanged(error)) throw error;
      this.discardVectors();
      options.onVectorsDiscarded?.(error.message);
      return this.indexFiles(files(), options);
    }
  }

  /** Re-indexes one file after an edit: unchanged chunks are cache hits, only changed text is embedded. */
  updateFile(path: string, text: string, options: IndexRunOptions = {}): Promise<IndexRunResult> {
    return this.indexFiles([{ path, text }], options);
  }

  /** Forgets a file. Returns whether it was indexed. */
  removeFile(path: string): boolean {
    this.versions.bump(path);
    const removed = this.store.remove(path);
    if (removed) this.shortcutsSavedAt.removed += 1;
    return removed;
  }

  /** Moves a file's chunks to a new path (replacing whatever `to` had). Returns whether `from` was indexed. */
  renameFile(from: string, to: string): boolean {
    if (from === to) return this.store.has(from);
    this.versions.bump(from);
    this.removeFile(to);
    const moved = this.store.move(from, to);
    // The saved boundaries and words are kept by path: the next window would parse it.
    if (moved) this.shortcutsSavedAt.removed += 1;
    return moved;
  }

  /** Forgets everything (the cache stays). */
  clear(): void {
    for (const path of this.store.paths()) this.removeFile(path);
  }

  /**
   * Forgets every file and every cached vector (the next save empties the cache on disk): after the
   * model's vectors changed length, none of them can be compared with a new one. Index again.
   */
  discardVectors(): void {
    this.clear();
    this.cache.clear();
  }

  /**
   * The `k` chunks closest to `queryVector` (embedded with the same model), best first, with their
   * cosine similarities; given `queryText` (what was embedded), ranked by its words too (hybrid
   * search: see ChunkStore). A query of another length than the indexed vectors is an
   * EMBEDDING_DIMENSIONS_CHANGED error.
   */
  search(queryVector: Float32Array, k: number, queryText?: string): SearchHit[] {
    const held = this.cache.dimensions;
    if (held !== undefined && queryVector.length !== held && this.store.chunkCount > 0) throw dimensionsChanged(held, queryVector.length);
    return this.store.search(queryVector, k, queryText);
  }

  /** Files cut from their recorded boundaries and files parsed, since made (both 0 without `boundaries`). */
  get chunkedFiles(): { reused: number; parsed: number } {
    return this.chunker instanceof ReusingChunker ? { ...this.chunker.counts } : { reused: 0, parsed: 0 };
  }

  /**
   * Files parsed or removed since {@link shortcutsSaved}: what the saved keyword index and chunk
   * boundaries lack (see indexSave.ts). Infinity without `boundaries`: nothing tells then.
   */
  get shortcutLag(): number {
    if (!(this.chunker instanceof ReusingChunker)) return Infinity;
    return this.chunker.counts.parsed - this.shortcutsSavedAt.parsed + this.shortcutsSavedAt.removed;
  }

  /** The keyword index and chunk boundaries were saved as they are now. */
  shortcutsSaved(): void {
    this.shortcutsSavedAt = { parsed: this.chunkedFiles.parsed, removed: 0 };
  }

  /** Bytes the keyword index's arrays take (counted in memory per chunk). */
  get keywordBytes(): number {
    return this.store.keywordBytes;
  }

  /** The indexed chunks of `path`, or undefined when it is not indexed. */
  file(path: string): IndexedFile | undefined {
    return this.store.file(path);
  }

  /**
   * The keyword index of chunk texts, to save with the cache (keywordIndexFile.ts); `forgetSaved()`
   * after a complete scan drops what a saved one held of files no longer indexed.
   */
  get keywords(): ChunkStore['keywordIndex'] {
    return this.store.keywordIndex;
  }

  paths(): string[] {
    return this.store.paths();
  }

  /** Cache keys some indexed file uses: pass to `cache.prune` before saving. */
  liveKeys(): Set<string> {
    return this.store.liveKeys();
  }

  /** Files and chunks indexed now; requests, cache hits, embedded chunks and 429s since the indexer was made. */
  get stats(): IndexerStats {
    return { files: this.store.fileCount, chunks: this.store.chunkCount, ...this.totals, maxInFlight: this.limiter.limit };
  }
}
