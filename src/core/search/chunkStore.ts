import type { Chunk } from './chunker';
import type { EmbeddingCache } from './embeddingCache';
import type { IndexedFile, SearchHit } from './indexerTypes';

/** A chunk whose vector is in the cache under `key`, ready to be indexed. */
export interface KeyedChunk extends Chunk {
  key: string;
}

interface FileRecord {
  path: string;
  chunks: StoredChunk[];
}

interface StoredChunk {
  file: FileRecord;
  startLine: number;
  endLine: number;
  preview: string;
  key: string;
}

/**
 * The indexed files and their chunks, searchable by vector. Vectors stay in the cache, which is
 * also the nearest-neighbour index (one copy of each vector): a search asks it for the keys closest
 * to the query among those some indexed chunk has, and a key shared by several chunks (the same
 * text in several places) stands for all of them.
 */
export class ChunkStore {
  private readonly files = new Map<string, FileRecord>();
  /** The chunks of each key some indexed file has: one chunk, or (text found in several places) an array of them, which most keys do without. */
  private readonly chunksByKey = new Map<string, StoredChunk | StoredChunk[]>();
  private chunks = 0;

  constructor(
    private readonly cache: EmbeddingCache,
    private readonly previewChars: number,
  ) {}

  get fileCount(): number {
    return this.files.size;
  }

  get chunkCount(): number {
    return this.chunks;
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
    return new Set(this.chunksByKey.keys());
  }

  /** Replaces the record of `path` with chunks whose vectors are all in the cache. */
  commit(path: string, chunks: KeyedChunk[]): void {
    const old = this.files.get(path);
    if (old) this.dropChunks(old);
    const record: FileRecord = { path, chunks: [] };
    for (const chunk of chunks) {
      const stored: StoredChunk = {
        file: record,
        startLine: chunk.startLine,
        endLine: chunk.endLine,
        preview: previewOf(chunk.text, this.previewChars),
        key: chunk.key,
      };
      record.chunks.push(stored);
      const sharing = this.chunksByKey.get(chunk.key);
      if (sharing === undefined) this.chunksByKey.set(chunk.key, stored);
      else if (Array.isArray(sharing)) sharing.push(stored);
      else this.chunksByKey.set(chunk.key, [sharing, stored]);
    }
    this.chunks += chunks.length;
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
    if (!(k >= 1) || this.chunks === 0) return [];
    const hits: SearchHit[] = [];
    for (const { id: key, score } of this.cache.search(query, k, (candidate) => this.chunksByKey.has(candidate))) {
      const sharing = this.chunksByKey.get(key)!;
      for (const chunk of Array.isArray(sharing) ? sharing : [sharing]) {
        if (hits.length >= k) return hits;
        hits.push({ path: chunk.file.path, startLine: chunk.startLine, endLine: chunk.endLine, preview: chunk.preview, score });
      }
    }
    return hits;
  }

  private dropChunks(record: FileRecord): void {
    for (const chunk of record.chunks) {
      const sharing = this.chunksByKey.get(chunk.key)!;
      if (!Array.isArray(sharing)) this.chunksByKey.delete(chunk.key);
      else if (sharing.length === 2) this.chunksByKey.set(chunk.key, sharing[sharing[0] === chunk ? 1 : 0]);
      else sharing.splice(sharing.indexOf(chunk), 1);
    }
    this.chunks -= record.chunks.length;
  }
}

/**
 * What a result shows of its chunk: the first line with text, at most `maxChars` of it, as a string
 * of its own. Not more: previews stay in memory for every chunk (the vectors aside, the biggest
 * part of it), and a result row shows one line. A slice of a string may be kept by V8 as a view
 * into it, which would keep the whole file's text in memory as long as the preview lives; slicing
 * a concatenation flattens it into a new string first, so the preview views only that copy.
 */
function previewOf(text: string, maxChars: number): string {
  const start = text.search(/\S/);
  if (start === -1) return '';
  const lineStart = text.lastIndexOf('\n', start) + 1;
  const lineEnd = text.indexOf('\n', start);
  const line = text.slice(lineStart, Math.min(lineEnd === -1 ? text.length : lineEnd, lineStart + maxChars)).replace(/\r$/, '');
  return (' ' + line).slice(1);
}
