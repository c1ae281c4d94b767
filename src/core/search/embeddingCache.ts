import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { FORMAT_VERSION, META_FILE, VECTORS_FILE, type MetaFile } from './cacheFormat';
import { readMetaFile, readVectorRows } from './cacheFiles';
import { CacheWriter, type StoredRows } from './cacheWriter';
import { VectorIndex, type VectorMatch } from './vectorIndex';

/**
 * Embedding vectors keyed by a hash of (model, text), persisted to a directory as two files,
 * `vectors.f32` (the rows) and `meta.json` (their keys, the commit point): see `cacheFormat.ts`.
 *
 * One copy of each vector: the cache stores them in a {@link VectorIndex} under their keys, and
 * that index is also what search scans, so a workspace costs the vectors' memory once (not once in
 * the cache and again in an index), and only half of it: once a vector is in the vectors file, the
 * index keeps its rounded halves and reads its row back from the file for an exact score. Only a
 * vector's direction counts for search (cosine similarity), so what is stored, saved and given
 * back is its unit vector.
 *
 * Loading streams the vectors file into the index's pages a block at a time (never a copy of the
 * whole file). Saving is cheap after appends: only the new rows are written, at the committed end
 * of the vectors file, then the meta file is replaced atomically (temp file + rename). A crash in
 * between leaves extra rows past `count`, which the next load ignores and the next save overwrites.
 * A full rewrite (the first save, after `prune` or a replaced vector) first removes the meta file,
 * then renames a complete temp vectors file into place, then writes the meta: a crash can lose the
 * cache, never pair keys with the wrong rows. The meta file holds the rows' CRC-32, so a vectors
 * file cut short or half written is told apart from a good one.
 *
 * A missing, unreadable, inconsistent, truncated or half-written cache, or one made by another
 * model or on a machine of the other endianness, is discarded on load (reported in `loadInfo`),
 * never thrown. A cache of format version 1 is read and rewritten as version 2 on the next save.
 * One process writes a directory at a time.
 */
export class EmbeddingCache {
  static readonly VECTORS_FILE = VECTORS_FILE;
  static readonly META_FILE = META_FILE;
  static readonly FORMAT_VERSION = FORMAT_VERSION;

  /** The vectors, made when their length is first known (on load, or with the first `set`). */
  private vectors: VectorIndex | undefined;
  private removals = 0;
  private readonly writer: CacheWriter;

  private constructor(
    readonly directory: string,
    readonly model: string,
    /** What load found: useful for logs and tests. */
    readonly loadInfo: CacheLoadInfo,
    loaded?: { vectors: VectorIndex; meta: MetaFile },
  ) {
    this.vectors = loaded?.vectors;
    const rows: StoredRows = {
      keys: () => this.vectors?.ids ?? [],
      dimensions: () => this.vectors?.dimensions,
      removals: () => this.removals,
      read: (key, target) => this.vectors?.readVector(key, target) ?? false,
      saved: (keys) => this.vectors?.rowsSaved(vectorsPath(directory), keys),
    };
    const written = loaded && { count: loaded.meta.count, checksum: loaded.meta.crc32 ?? 0, rewrite: loaded.meta.version !== FORMAT_VERSION };
    this.writer = new CacheWriter(directory, model, rows, written);
  }

  /** Loads the cache for `model` from `directory`, or starts an empty one (see the class comment). */
  static async load(directory: string, model: string): Promise<EmbeddingCache> {
    const discarded = (reason: string) => new EmbeddingCache(directory, model, { state: 'discarded', reason });
    try {
      const found = await readMetaFile(directory, model);
      if (found.state !== 'found') return new EmbeddingCache(directory, model, { state: found.state, reason: found.reason });
      const { meta } = found;
      const vectors = new VectorIndex(meta.dimensions);
      // Version 1 saved the vectors as the service sent them (kept in memory until the next save
      // rewrites them); version 2 their unit vectors, bit for bit, which stay in the file: the
      // index keeps only their rounded halves and reads the rows back for exact scores.
      const file = vectorsPath(directory);
      const add =
        meta.version === FORMAT_VERSION
          ? (row: number, values: Float32Array) => vectors.addFromFile(meta.keys[row], values, file, row)
          : (row: number, values: Float32Array) => vectors.add(meta.keys[row], values);
      const problem = await readVectorRows(directory, meta, add);
      if (problem) return discarded(problem);
      if (vectors.size !== meta.count) return discarded('the keys are not distinct');
      const info: CacheLoadInfo = { state: 'loaded', ...(meta.version === FORMAT_VERSION ? {} : { olderFormat: meta.version }) };
      return new EmbeddingCache(directory, model, info, { vectors, meta });
    } catch (error) {
      // A file that cannot be read, or a row that is no vector (not a finite number): start anew.
      return discarded(error instanceof Error ? error.message : String(error));
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
    const replaced = this.vectors.position(key);
    this.vectors.add(key, vector);
    if (replaced !== undefined) this.writer.changed(replaced);
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
    this.removals += 1;
    this.writer.cleared();
  }

  /** Forgets every vector whose key is not in `liveKeys`; the next save compacts the file. */
  prune(liveKeys: ReadonlySet<string>): number {
    const vectors = this.vectors;
    if (!vectors) return 0;
    const removed = vectors.ids.filter((key) => !liveKeys.has(key));
    for (const key of removed) {
      this.writer.changed(vectors.position(key)!);
      vectors.remove(key);
    }
    if (removed.length > 0) this.removals += 1;
    return removed.length;
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

/** The vectors file of the cache in `directory`. */
function vectorsPath(directory: string): string {
  return path.join(directory, VECTORS_FILE);
}
