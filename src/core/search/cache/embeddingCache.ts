import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { messageOf } from '../../base/errorMessage';
import { FORMAT_VERSION, META_FILE, namesOf } from './cacheFormat';
import { readJournalFile, readMetaFile, readVectorRows, removeOtherFiles } from './cacheFiles';
import { readJournal, replayJournal } from './cacheJournal';
import { CacheWriter, isBeingWritten, type LoadedFiles, type StoredRows } from './cacheWriter';
import { VectorIndex, type VectorMatch } from '../vector/vectorIndex';

/**
 * Embedding vectors keyed by a hash of (model, text), persisted to a directory: a vectors file
 * (the rows), a journal (what each save since the last compaction added and removed) and
 * `meta.json` (the keys as of that compaction, and the names of the two other files): see
 * `cacheFormat.ts`.
 *
 * One copy of each vector: the cache stores them in a {@link VectorIndex} under their keys, and
 * that index is also what search scans, so a workspace costs the vectors' memory once (not once in
 * the cache and again in an index), and only half of it: once a vector is in the vectors file, the
 * index keeps its rounded halves and reads its row back from the file for an exact score. Only a
 * vector's direction counts for search (cosine similarity), so what is stored, saved and given
 * back is its unit vector.
 *
 * Loading streams the vectors file into the index's pages a block at a time (never a copy of the
 * whole file). Saving writes what changed: the rows set since the last save, appended, and one
 * journal line; the vectors file is compacted only once a third of its rows are dead, into new
 * files that replace the old ones only when complete (see cacheWriter.ts). A crash or a full disk
 * at any point leaves the previous save readable; checksums tell rows cut short or half written.
 *
 * A missing, unreadable, inconsistent, truncated or half-written cache, or one made by another
 * model or on a machine of the other endianness, is discarded on load (reported in `loadInfo`),
 * never thrown. A cache of format version 1 or 2 is read and compacted into version 3 on the next
 * save. One process writes a directory at a time.
 */
export class EmbeddingCache {
  static readonly META_FILE = META_FILE;
  static readonly FORMAT_VERSION = FORMAT_VERSION;

  /** The vectors, made when their length is first known (on load, or with the first `set`). */
  private vectors: VectorIndex | undefined;
  private readonly writer: CacheWriter;

  private constructor(
    readonly directory: string,
    readonly model: string,
    /** What load found: useful for logs and tests. */
    readonly loadInfo: CacheLoadInfo,
    loaded?: { vectors: VectorIndex; files: LoadedFiles },
  ) {
    this.vectors = loaded?.vectors;
    const rows: StoredRows = {
      keys: () => this.vectors?.ids ?? [],
      unsaved: () => this.vectors?.idsInMemory() ?? [],
      unsavedCount: () => this.vectors?.rowsInMemory ?? 0,
      dimensions: () => this.vectors?.dimensions,
      read: (key, target) => this.vectors?.readVector(key, target) ?? false,
      saved: (file, keys, firstRow) => this.vectors?.rowsSaved(file, keys, firstRow),
    };
    this.writer = new CacheWriter(directory, model, rows, loaded?.files);
  }

  /** Loads the cache for `model` from `directory`, or starts an empty one (see the class comment). */
  static async load(directory: string, model: string): Promise<EmbeddingCache> {
    const discarded = (reason: string) => new EmbeddingCache(directory, model, { state: 'discarded', reason });
    try {
      const found = await readMetaFile(directory, model);
      if (found.state !== 'found') return new EmbeddingCache(directory, model, { state: found.state, reason: found.reason });
      const { meta } = found;
      const names = namesOf(meta);
      const journal = readJournal(await readJournalFile(directory, names.journal));
      const { rowKeys, segments } = replayJournal(meta.keys, meta.crc32, journal.records);
      const vectors = new VectorIndex(meta.dimensions);
      // Version 1 saved the vectors as the service sent them (kept in memory until the next save
      // rewrites them); later versions their unit vectors, bit for bit, which stay in the file: the
      // index keeps only their rounded halves and reads the rows back for exact scores.
      const file = path.join(directory, names.vectors);
      let live = 0;
      const problem = await readVectorRows(file, meta.dimensions, segments, (row, values) => {
        const key = rowKeys[row];
        if (key === undefined) return;
        live++;
        if (meta.version === 1) vectors.add(key, values);
        else vectors.addFromFile(key, values, file, row);
      });
      if (problem) return discarded(problem);
      if (vectors.size !== live) return discarded('the keys are not distinct');
      // What a save or compaction cut short left behind (a kill leaves temp files too), unless a
      // cache of this window is writing there now (an indexer being replaced finishing its save).
      if (meta.version === FORMAT_VERSION && !isBeingWritten(directory)) await removeOtherFiles(directory, [META_FILE, names.vectors, names.journal!]);
      const info: CacheLoadInfo = { state: 'loaded', ...(meta.version === FORMAT_VERSION ? {} : { olderFormat: meta.version }) };
      const files: LoadedFiles = {
        names: { vectors: names.vectors, journal: names.journal ?? '' },
        rows: rowKeys.length,
        journalBytes: journal.validBytes,
        compact: meta.version !== FORMAT_VERSION,
      };
      return new EmbeddingCache(directory, model, info, { vectors, files });
    } catch (error) {
      // A file that cannot be read, or a row that is no vector (not a finite number): start anew.
      return discarded(messageOf(error));
    }
  }

  /** An empty cache that saves to `directory` (what `load` gives when there is nothing to load). */
  static empty(directory: string, model: string): EmbeddingCache {
    return new EmbeddingCache(directory, model, { state: 'missing' });
  }

  /** The key of `text` under `model`: 32 hex digits (128 bits) of sha256. */
  static keyFor(model: string, text: string): string {
    return createHash('sha256').update(model).update('\0').update(text).digest('hex').slice(0, 32);
  }

  keyFor(text: string): string {
    return EmbeddingCache.keyFor(this.model, text);
  }

  /** Length of every vector; undefined while the cache is empty and nothing was loaded. */
  get dimensions(): number | undefined {
    return this.vectors?.dimensions;
  }

  get size(): number {
    return this.vectors?.size ?? 0;
  }

  /** How many vectors are held whole in memory, not yet read back from the vectors file (those set since the last save). */
  get rowsInMemory(): number {
    return this.vectors?.rowsInMemory ?? 0;
  }

  /** How many exact scores had to do with rounded halves because the vectors file changed behind the cache's back (see VectorIndex.inexactReads). */
  get inexactReads(): number {
    return this.vectors?.inexactReads ?? 0;
  }

  has(key: string): boolean {
    return this.vectors?.has(key) ?? false;
  }

  /**
   * The cache's own string for `key` when it holds a vector under it (else `key`): a caller that
   * keeps keys for every chunk keeps this one, so a key read from disk is not in memory twice.
   */
  storedKey(key: string): string {
    const position = this.vectors?.position(key);
    return position === undefined ? key : this.vectors!.ids[position];
  }

  /** A copy of the unit vector stored under `key` (the direction of the one `set`), or undefined. */
  get(key: string): Float32Array | undefined {
    if (!this.vectors) return undefined;
    const vector = new Float32Array(this.vectors.dimensions);
    return this.vectors.readVector(key, vector) ? vector : undefined;
  }

  /** The keys stored, in storage order. */
  keys(): string[] {
    return this.vectors ? [...this.vectors.ids] : [];
  }

  /** Stores the direction of `vector` under `key`. Throws if its length differs from the cache's, or a component is not finite. */
  set(key: string, vector: Float32Array): void {
    if (this.vectors === undefined) {
      if (vector.length === 0) throw new Error('An embedding vector cannot be empty.');
      this.vectors = new VectorIndex(vector.length);
    } else if (vector.length !== this.vectors.dimensions) {
      throw new Error(`An embedding of ${vector.length} dimensions does not fit a cache of ${this.vectors.dimensions} (model ${this.model}).`);
    }
    this.vectors.add(key, vector);
  }

  /**
   * The `k` stored vectors closest to `query` by cosine similarity, best first, as keys; with
   * `accept`, only keys it accepts (see {@link VectorIndex.search}).
   */
  search(query: Float32Array, k: number, accept?: (key: string) => boolean): VectorMatch[] {
    return this.vectors?.search(query, k, accept) ?? [];
  }

  /** Forgets every vector and their length (vectors of another model's space); the next save empties the files. */
  clear(): void {
    this.vectors = undefined;
    this.writer.cleared();
  }

  /** Forgets every vector whose key is not in `liveKeys`; the next save marks their rows dead. */
  prune(liveKeys: ReadonlySet<string>): number {
    const vectors = this.vectors;
    if (!vectors) return 0;
    const removed = vectors.ids.filter((key) => !liveKeys.has(key));
    for (const key of removed) {
      vectors.remove(key);
      this.writer.removedKey(key);
    }
    return removed.length;
  }

  /** The vectors file rows are read from now (undefined before the first save): for tests and benchmarks. */
  get vectorsFile(): string | undefined {
    return this.writer.vectorsFile;
  }

  /** Rows of the vectors file no key reads any more (replaced or removed), until the next compaction. */
  get deadRows(): number {
    return this.writer.deadRows;
  }

  /** Whether a save would write anything. */
  get dirty(): boolean {
    return this.writer.dirty;
  }

  /**
   * Writes what changed since the last save (see the class comment). Saves queue behind each other;
   * vectors set while a save runs go into the next one.
   */
  save(): Promise<void> {
    return this.writer.save();
  }
}

export interface CacheLoadInfo {
  /** `missing`: nothing on disk; `modelChanged`: a cache of another model was set aside; `discarded`: unreadable or inconsistent. */
  state: 'loaded' | 'missing' | 'modelChanged' | 'discarded';
  reason?: string;
  /** For `loaded`: the older format version the cache was read from (the next save rewrites it). */
  olderFormat?: number;
}
