import type { ChunkBoundaries } from './syntax/chunkBoundaries';
import type { ChunkOptions } from './syntax/chunker';
import type { SourceChunker } from './syntax/syntaxChunker';
import type { EmbeddingCache } from './cache/embeddingCache';
import type { SavedKeywords } from './keyword/keywordIndexFile';
import type { EmbedFunction, RateLimitPolicy } from './adaptiveLimiter';

/** The public shapes of `WorkspaceIndexer`: what goes in, what comes out. */

export interface SourceFile {
  path: string;
  text: string;
}

export interface WorkspaceIndexerOptions {
  /** Vectors for `texts`, in order: e.g. `(texts, signal) => client.embeddings(texts, { model, signal })`. One call counts as one request. */
  embed: EmbedFunction;
  /** Loaded for the same model `embed` uses. */
  cache: EmbeddingCache;
  /** Embedding requests in flight at most (the adaptive limit never exceeds it). Default 2. */
  maxInFlight?: number;
  /** Texts per embed call. Default 32; keep it within the client's `embeddingBatch.maxItems` so one call is one request. */
  batchSize?: number;
  /** Characters per embed call (summed). Default 48 000; likewise within the client's `maxChars`. */
  batchChars?: number;
  chunkOptions?: ChunkOptions;
  /** How files are cut into chunks. Default: by lines (`lineChunker`). */
  chunker?: SourceChunker;
  /** `chunker` failed on a file: it is cut by lines instead (recorded in `boundaries`, so told once while its text stays). */
  onChunkingFailed?: (path: string, error: unknown) => void;
  /** Where files were cut before (loaded for this chunker and `chunkOptions`): a file whose text is the same is not cut again. */
  boundaries?: ChunkBoundaries;
  /** A keyword index saved earlier with the cache (keywordIndexFile.ts): unchanged chunks' words are not split again. */
  keywords?: SavedKeywords;
  /** Characters of a chunk's first line with text kept for search results. Default 160. */
  previewChars?: number;
  rateLimit?: Partial<RateLimitPolicy>;
  /**
   * Saves the cache after every this many batches stored, so a run cut short loses at most those
   * since (and the ones in flight). Default 0: the caller saves.
   */
  saveEvery?: number;
  /** A checkpoint's save failed (indexing goes on; the next one tries again). */
  onSaveFailed?: (error: unknown) => void;
}

export interface IndexRunOptions {
  signal?: AbortSignal;
  /** Called as files finish and batches arrive; exceptions from it are ignored. */
  onProgress?: (progress: IndexProgress) => void;
}

/** What embedding cost: counted per run (`IndexProgress`) and since the indexer was made (`IndexerStats`). */
export interface EmbeddingCounters {
  /** Embed calls made, retries included. */
  requests: number;
  /** Chunks whose vector was already in the cache. */
  cachedChunks: number;
  /** Chunks embedded. */
  embeddedChunks: number;
  /** 429s met (each one slowed indexing down). */
  rateLimited: number;
}

export interface IndexProgress extends EmbeddingCounters {
  /** Files whose every chunk has a vector (now indexed). */
  files: number;
  /** Chunks of the files read so far. */
  chunks: number;
}

export type IndexRunResult = IndexProgress;

export interface IndexerStats extends EmbeddingCounters {
  /** Files indexed now. */
  files: number;
  /** Chunks indexed now. */
  chunks: number;
  /** The adaptive in-flight limit right now. */
  maxInFlight: number;
}

export interface IndexedChunk {
  startLine: number;
  endLine: number;
  preview: string;
  key: string;
}

export interface IndexedFile {
  path: string;
  chunks: IndexedChunk[];
}

export interface SearchHit {
  path: string;
  /** 0-based, inclusive. */
  startLine: number;
  endLine: number;
  /** The chunk's first line with text (its start), cut to `previewChars`. */
  preview: string;
  /** Cosine similarity to the query, in [-1, 1]: hybrid search orders by more than this (see ChunkStore). */
  score: number;
  /** Set when hybrid search found every known word of the query in the chunk or its path: relevant whatever its score. */
  exact?: boolean;
}
