import type { Chunk } from './chunker';
import type { EmbeddingCache } from './embeddingCache';
import type { IndexedChunk, IndexedFile, SearchHit, SearchIndex } from './indexerTypes';

/** A chunk whose vector is in the cache under `key`, ready to be indexed. */
export interface KeyedChunk extends Chunk {
  key: string;
}

interface FileRecord {
  path: string;
  chunks: IndexedChunk[];
}

/**
 * The indexed files and their chunks, searchable by vector. Vectors stay in the cache (looked up by
 * key); the nearest-neighbour index is built lazily, once the vectors' length is known, and kept
 * in step with every change after that. Every search goes through it.
 */
export class ChunkStore {
  private readonly files = new Map<string, FileRecord>();
  private readonly chunksById = new Map<string, { file: FileRecord; chunk: IndexedChunk }>();
  private nextChunkId = 1;
  private index: SearchIndex | undefined;

  constructor(
    private readonly cache: EmbeddingCache,
    private readonly previewChars: number,
    private readonly createIndex: (dimensions: number) => SearchIndex,
  ) {}

  get fileCount(): number {
    return this.files.size;
  }

  get chunkCount(): number {
    return this.chunksById.size;
  }

  has(path: string): boolean {
    return this.files.has(path);
  }

  paths(): string[] {
    return [...this.files.keys()];
  }

  file(path: string): IndexedFile | undefined {
    const record = this.files.get(path);
    return record && { path: record.path, chunks: record.chunks.map(({ startLine, endLine, preview, key }) => ({ startLine, endLine, preview, key })) };
  }

  /** Cache keys some indexed file uses. */
  liveKeys(): Set<string> {
    const keys = new Set<string>();
    for (const record of this.files.values()) for (const chunk of record.chunks) keys.add(chunk.key);
    return keys;
  }

  /** Replaces the record of `path` with chunks whose vectors are all in the cache. */
  commit(path: string, chunks: KeyedChunk[]): void {
    const old = this.files.get(path);
    if (old) this.dropChunks(old);
    const record: FileRecord = { path, chunks: [] };
    for (const chunk of chunks) {
      const indexed: IndexedChunk = {
        id: `c${this.nextChunkId++}`,
        startLine: chunk.startLine,
        endLine: chunk.endLine,
        preview: chunk.text.slice(0, this.previewChars),
        key: chunk.key,
      };
      record.chunks.push(indexed);
      this.chunksById.set(indexed.id, { file: record, chunk: indexed });
      const vector = this.index && this.cache.get(chunk.key);
      if (vector) this.index!.add(indexed.id, vector);
    }
    this.files.set(path, record);
  }

  remove(path: string): boolean {
    const record = this.files.get(path);
    if (!record) return false;
    this.dropChunks(record);
    this.files.delete(path);
    return true;
  }

  /** Moves the record of `from` to `to`, which must not be indexed. */
  move(from: string, to: string): boolean {
    const record = this.files.get(from);
    if (!record) return false;
    this.files.delete(from);
    record.path = to;
    this.files.set(to, record);
    return true;
  }

  /** The `k` chunks closest to `query`, best first. */
  search(query: Float32Array, k: number): SearchHit[] {
    const index = k > 0 && this.chunksById.size > 0 ? this.ensureIndex() : undefined;
    if (!index) return [];
    const hits: SearchHit[] = [];
    for (const { id, score } of index.search(query, k)) {
      const entry = this.chunksById.get(id);
      if (!entry) continue;
      const { file, chunk } = entry;
      hits.push({ path: file.path, startLine: chunk.startLine, endLine: chunk.endLine, preview: chunk.preview, score });
    }
    return hits;
  }

  /** Forgets the nearest-neighbour index; the next search builds it anew for the cache's vector length. */
  dropIndex(): void {
    this.index = undefined;
  }

  private dropChunks(record: FileRecord): void {
    for (const chunk of record.chunks) {
      this.chunksById.delete(chunk.id);
      this.index?.remove(chunk.id);
    }
  }

  /** The index, built now if need be; undefined while no vector length is known (nothing to search). */
  private ensureIndex(): SearchIndex | undefined {
    if (this.index || this.cache.dimensions === undefined) return this.index;
    const index = this.createIndex(this.cache.dimensions);
    for (const [id, vector] of this.vectorsById()) if (vector) index.add(id, vector);
    this.index = index;
    return index;
  }

  private *vectorsById(): Generator<[string, Float32Array | undefined]> {
    for (const [id, { chunk }] of this.chunksById) yield [id, this.cache.get(chunk.key)];
  }
}
