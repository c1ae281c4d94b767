import type { BatchLimits } from '../service/embeddingBatches';
import { yieldToEventLoop } from '../base/eventLoop';
import type { AdaptiveLimiter, EmbedFunction } from './adaptiveLimiter';
import type { Checkpoints } from './cache/checkpoints';
import { embeddingText, type Chunk, type ChunkOptions } from './syntax/chunker';
import type { ChunkStore, KeyedChunk } from './chunkStore';
import type { EmbeddingCache } from './cache/embeddingCache';
import { EmbeddingQueue, type QueuedText } from './embeddingQueue';
import { dimensionsChanged } from './cache/dimensionsChanged';
import { indexingCancelled } from './indexingCancelled';
import type { SourceChunker } from './syntax/syntaxChunker';
import type { EmbeddingCounters, IndexProgress, IndexRunOptions, IndexRunResult, SourceFile } from './indexerTypes';
import type { PathVersions } from './cache/pathVersions';

/** What a run shares with its indexer (and with the indexer's other runs). */
export interface IndexRunContext {
  cache: EmbeddingCache;
  store: ChunkStore;
  versions: PathVersions;
  limiter: AdaptiveLimiter;
  embed: EmbedFunction;
  batchLimits: BatchLimits;
  chunkOptions: ChunkOptions;
  chunker: SourceChunker;
  /** The indexer's counters since it was made: a run adds to them as it adds to its own. */
  totals: EmbeddingCounters;
  /** Told of each batch stored in the cache (saves it every few). */
  checkpoints: Checkpoints;
}

/** A file whose chunks are waiting for `missing` vectors before its record can be replaced. */
interface FileJob {
  path: string;
  version: number;
  chunks: KeyedChunk[];
  missing: number;
}

/** One indexFiles call: reads files, batches the missing texts, commits files as they complete. */
export class IndexRun {
  private readonly progress: IndexProgress = { files: 0, chunks: 0, requests: 0, cachedChunks: 0, embeddedChunks: 0, rateLimited: 0 };
  private readonly queue: EmbeddingQueue<FileJob>;
  private readonly outstanding = new Set<Promise<void>>();
  /** The run's first failure, boxed: `undefined` could be what was thrown. */
  private failure?: { error: unknown };
  /** Stops waiting batches after a failure (requests already sent finish). */
  private readonly stop = new AbortController();
  private readonly waitSignal: AbortSignal;

  constructor(
    private readonly context: IndexRunContext,
    private readonly options: IndexRunOptions,
  ) {
    this.queue = new EmbeddingQueue(context.batchLimits);
    this.waitSignal = options.signal ? AbortSignal.any([options.signal, this.stop.signal]) : this.stop.signal;
  }

  async execute(files: AsyncIterable<SourceFile> | Iterable<SourceFile>): Promise<IndexRunResult> {
    try {
      this.throwIfStopped();
      for await (const file of files) {
        this.throwIfStopped();
        const chunks = await this.context.chunker.chunk(file.text, file.path, this.context.chunkOptions);
        this.addFile(file, chunks);
        // A batch just started: let its request go out now, not after the files read ahead are chunked too.
        if (this.dispatch(false)) await yieldToEventLoop();
        // Backpressure: read on only while few batches wait.
        while (this.outstanding.size > this.context.limiter.max * 2 && !this.stopped) await Promise.race(this.outstanding);
      }
      this.throwIfStopped();
      this.dispatch(true);
    } catch (error) {
      this.fail(error);
    }
    while (this.outstanding.size > 0) await Promise.race(this.outstanding);
    if (this.failure === undefined && this.options.signal?.aborted) this.failure = { error: indexingCancelled() };
    if (this.failure !== undefined) throw this.failure.error;
    return { ...this.progress };
  }

  private get stopped(): boolean {
    return this.failure !== undefined || this.options.signal?.aborted === true;
  }

  private throwIfStopped(): void {
    if (this.options.signal?.aborted) throw indexingCancelled();
    if (this.failure !== undefined) throw this.failure.error;
  }

  private fail(error: unknown): void {
    if (this.failure === undefined) this.failure = { error };
    this.stop.abort();
  }

  private count(what: keyof EmbeddingCounters, n = 1): void {
    this.progress[what] += n;
    this.context.totals[what] += n;
  }

  private addFile(file: SourceFile, chunks: Chunk[]): void {
    const { cache, versions } = this.context;
    const job: FileJob = { path: file.path, version: versions.bump(file.path), chunks: [], missing: 0 };
    for (const chunk of chunks) {
      const text = embeddingText(chunk);
      const key = cache.storedKey(cache.keyFor(text));
      job.chunks.push({ ...chunk, key });
      if (cache.has(key)) {
        this.count('cachedChunks');
        continue;
      }
      job.missing += 1;
      this.queue.request(key, text, job);
    }
    this.progress.chunks += job.chunks.length;
    if (job.missing === 0) this.finish(job);
    else this.report();
  }

  /** Starts batches from the queue: only full ones unless `all`. Returns whether it started any. */
  private dispatch(all: boolean): boolean {
    const batches = this.queue.takeBatches(all);
    for (const batch of batches) {
      const task = this.runBatch(batch).then(
        () => undefined,
        (error: unknown) => this.fail(error),
      );
      const tracked = task.finally(() => this.outstanding.delete(tracked));
      this.outstanding.add(tracked);
    }
    return batches.length > 0;
  }

  private async runBatch(batch: QueuedText[]): Promise<void> {
    const { limiter, embed, cache } = this.context;
    const texts = batch.map((item) => item.text);
    const vectors = await limiter.run(texts, embed, this.options.signal, this.waitSignal, {
      onRequest: () => this.count('requests'),
      onRateLimited: () => this.count('rateLimited'),
    });
    const held = cache.dimensions ?? vectors[0]?.length;
    const odd = vectors.find((vector) => vector.length !== held);
    if (held !== undefined && odd) throw dimensionsChanged(held, odd.length);
    // Into the cache at once, so that a run stopped later need not embed these again.
    for (let i = 0; i < batch.length; i++) cache.set(batch[i].key, vectors[i]);
    this.context.checkpoints.batchStored();
    this.count('embeddedChunks', batch.length);
    for (const { key } of batch) {
      for (const job of this.queue.resolve(key)) {
        job.missing -= 1;
        if (job.missing === 0) this.finish(job);
      }
    }
    this.report();
  }

  private finish(job: FileJob): void {
    if (this.context.versions.isCurrent(job.path, job.version)) this.context.store.commit(job.path, job.chunks);
    this.progress.files += 1;
    this.report();
  }

  private report(): void {
    try {
      this.options.onProgress?.({ ...this.progress });
    } catch {
      // a progress display that fails must not stop indexing
    }
  }
}
