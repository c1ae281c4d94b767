import { ChunkKeywords } from './keyword/chunkKeywords';
import { embeddingText, type Chunk } from './syntax/chunker';
import type { EmbeddingCache } from './cache/embeddingCache';
import type { IndexedFile, SearchHit } from './indexerTypes';
import type { SavedKeywords } from './keyword/keywordIndexFile';
import { fuseRankings } from './rankFusion';

/** A chunk whose vector is in the cache under `key`, ready to be indexed. */
export interface KeyedChunk extends Chunk {
  key: string;
}

interface FileRecord {
  path: string;
  /** Its path's words in the keyword index. */
  pathDoc: number;
  chunks: StoredChunk[];
}

interface StoredChunk {
  file: FileRecord;
  startLine: number;
  endLine: number;
  preview: string;
  key: string;
  /** Its text's words in the keyword index. */
  doc: number;
}

/** How deep each ranking is read for hybrid search (at least the results asked for). */
const FUSION_DEPTH = 50;

/**
 * The indexed files and their chunks, searchable by vector and by words. Vectors stay in the cache,
 * which is also the nearest-neighbour index (one copy of each vector): a search asks it for the keys
 * closest to the query among those some indexed chunk has, and a key shared by several chunks (the
 * same text in several places) stands for all of them. Words are in {@link ChunkKeywords}, updated
 * as files are committed and removed (texts are not kept: a chunk's words are read at commit).
 *
 * Hybrid search (with the query's text): the vector ranking and the keyword ranking, each read
 * {@link FUSION_DEPTH} deep, are fused by reciprocal rank fusion (rankFusion.ts); then the exact
 * matches (chunks that hold every name the query gives, an identifier or a file name, or without
 * names every word of it the index has, as an error message: see chunkKeywords.ts) move before the
 * rest, keeping their fused order. Fusion alone would not put an exact name first when the
 * embedding misses it: any chunk both rankings place in their first sixty outscores the first place
 * of one ranking. No request is made: the words are local.
 */
export class ChunkStore {
  private readonly files = new Map<string, FileRecord>();
  /** The chunks of each key some indexed file has: one chunk, or (text found in several places) an array of them, which most keys do without. */
  private readonly chunksByKey = new Map<string, StoredChunk | StoredChunk[]>();
  private readonly keywords: ChunkKeywords<StoredChunk, FileRecord>;
  private chunks = 0;

  constructor(
    private readonly cache: EmbeddingCache,
    private readonly previewChars: number,
    /** A keyword index saved earlier: its chunks' words are taken back as their files are committed. */
    savedKeywords?: SavedKeywords,
  ) {
    this.keywords = new ChunkKeywords(savedKeywords);
  }

  /** The keyword index to save (see keywordIndexFile.ts). */
  get keywordIndex(): Pick<ChunkKeywords<StoredChunk, FileRecord>, 'toSave' | 'forgetSaved'> {
    return this.keywords;
  }

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
    const record: FileRecord = { path, pathDoc: -1, chunks: [] };
    for (const chunk of chunks) {
      const stored: StoredChunk = {
        file: record,
        startLine: chunk.startLine,
        endLine: chunk.endLine,
        preview: previewOf(chunk.text, this.previewChars),
        key: chunk.key,
        doc: -1,
      };
      record.chunks.push(stored);
      const sharing = this.chunksByKey.get(chunk.key);
      if (sharing === undefined) this.chunksByKey.set(chunk.key, stored);
      else if (Array.isArray(sharing)) sharing.push(stored);
      else this.chunksByKey.set(chunk.key, [sharing, stored]);
    }
    this.keywords.addFile(record, chunks.map(embeddingText));
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
    this.keywords.pathChanged(record);
    this.files.set(to, record);
    return true;
  }

  /** Bytes of the keyword index's arrays (its words' strings aside). */
  get keywordBytes(): number {
    return this.keywords.allocatedBytes;
  }

  /**
   * The `k` chunks closest to `query`, best first; with `queryText` (the words `query` embeds),
   * by hybrid search (see the class comment). A hit's score is its cosine similarity either way.
   */
  search(query: Float32Array, k: number, queryText?: string): SearchHit[] {
    if (!(k >= 1) || this.chunks === 0) return [];
    const depth = queryText === undefined ? k : Math.max(k, FUSION_DEPTH);
    const cosines = new Map<StoredChunk, number>();
    for (const { id: key, score } of this.cache.search(query, depth, (candidate) => this.chunksByKey.has(candidate))) {
      for (const chunk of this.sharing(key)) if (cosines.size < depth) cosines.set(chunk, score);
    }
    if (queryText === undefined) return [...cosines].slice(0, k).map(([chunk, score]) => hitOf(chunk, score));

    const byWords = this.keywords.rank(queryText, depth);
    const exact = new Set(byWords.filter((ranked) => ranked.exact).map((ranked) => ranked.chunk));
    const fused = fuseRankings([[...cosines.keys()], byWords.map((ranked) => ranked.chunk)]).map(({ item }) => item);
    const ordered = [...fused.filter((chunk) => exact.has(chunk)), ...fused.filter((chunk) => !exact.has(chunk))];
    return ordered.slice(0, k).map((chunk) => hitOf(chunk, cosines.get(chunk) ?? this.cosine(query, chunk.key), exact.has(chunk)));
  }

  /** The chunks whose text has the cache key `key`. */
  private sharing(key: string): StoredChunk[] {
    const sharing = this.chunksByKey.get(key)!;
    return Array.isArray(sharing) ? sharing : [sharing];
  }

  /** The cosine similarity of `query` to the vector cached under `key` (a unit vector). */
  private cosine(query: Float32Array, key: string): number {
    const vector = this.cache.get(key);
    if (!vector) return 0;
    let dot = 0;
    let norm = 0;
    for (let i = 0; i < query.length; i++) {
      dot += query[i] * vector[i];
      norm += query[i] * query[i];
    }
    return norm === 0 ? 0 : Math.max(-1, Math.min(1, dot / Math.sqrt(norm)));
  }

  private dropChunks(record: FileRecord): void {
    this.keywords.removeFile(record);
    for (const chunk of record.chunks) {
      const sharing = this.chunksByKey.get(chunk.key)!;
      if (!Array.isArray(sharing)) this.chunksByKey.delete(chunk.key);
      else if (sharing.length === 2) this.chunksByKey.set(chunk.key, sharing[sharing[0] === chunk ? 1 : 0]);
      else sharing.splice(sharing.indexOf(chunk), 1);
    }
    this.chunks -= record.chunks.length;
  }
}

function hitOf(chunk: StoredChunk, score: number, exact?: boolean): SearchHit {
  const hit: SearchHit = { path: chunk.file.path, startLine: chunk.startLine, endLine: chunk.endLine, preview: chunk.preview, score };
  if (exact) hit.exact = true;
  return hit;
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
