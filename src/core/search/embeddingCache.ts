import { createHash } from 'node:crypto';
import { FORMAT_VERSION, META_FILE, VECTORS_FILE } from './cacheFormat';
import { readCacheFiles, type LoadedFiles } from './cacheFiles';
import { CacheWriter } from './cacheWriter';

export { float32View } from './float32View';

/**
 * Embedding vectors keyed by a hash of (model, text), kept in memory and persisted to a directory as
 * two files, `vectors.f32` (the rows) and `meta.json` (their keys, the commit point): see
 * `cacheFormat.ts`.
 *
 * Loading reads the vectors file once and hands out `Float32Array` views over that buffer (no copy
 * per row, no copy of the file). A Buffer whose byteOffset is not a multiple of 4 cannot back a
 * Float32Array; only then is the file copied once into an aligned array (`loadInfo.zeroCopy` says
 * which happened). `fs.readFile` returns its own, aligned allocation in practice, so this is a
 * safety net rather than the usual path.
 *
 * Saving is cheap after appends: only the new rows are written, at the committed end of the vectors
 * file, then the meta file is replaced atomically (temp file + rename). A crash in between leaves
 * extra rows past `count`, which the next load ignores and the next save overwrites. A full rewrite
 * (the first save, after `prune` or a replaced vector) first removes the meta file, then renames a
 * complete temp vectors file into place, then writes the meta: a crash can lose the cache, never pair
 * keys with the wrong rows.
 *
 * A missing, unreadable, inconsistent or truncated cache, or one made by another model or on a
 * machine of the other endianness, is discarded on load (reported in `loadInfo`), never thrown.
 *
 * Vectors returned by `get` are views into the cache's storage: read them, do not modify them.
 * One process writes a directory at a time.
 */
export class EmbeddingCache {
  static readonly VECTORS_FILE = VECTORS_FILE;
  static readonly META_FILE = META_FILE;
  static readonly FORMAT_VERSION = FORMAT_VERSION;

  private readonly entries = new Map<string, Float32Array>();
  private readonly writer: CacheWriter;
  private dims: number | undefined;

  private constructor(
    readonly directory: string,
    readonly model: string,
    /** What load found: useful for logs and tests. */
    readonly loadInfo: CacheLoadInfo,
    loaded?: Extract<LoadedFiles, { state: 'loaded' }>,
  ) {
    if (loaded) {
      const { meta, rows } = loaded;
      this.dims = meta.dimensions;
      for (let i = 0; i < meta.count; i++) this.entries.set(meta.keys[i], rows.subarray(i * meta.dimensions, (i + 1) * meta.dimensions));
    }
    this.writer = new CacheWriter(directory, model, this.entries, loaded?.meta.keys.slice(0, loaded.meta.count));
  }

  /** Loads the cache for `model` from `directory`, or starts an empty one (see the class comment). */
  static async load(directory: string, model: string): Promise<EmbeddingCache> {
    let read: LoadedFiles;
    try {
      read = await readCacheFiles(directory, model);
    } catch (error) {
      return new EmbeddingCache(directory, model, { state: 'discarded', reason: error instanceof Error ? error.message : String(error) });
    }
    if (read.state !== 'loaded') return new EmbeddingCache(directory, model, { state: read.state, reason: read.reason });
    return new EmbeddingCache(directory, model, { state: 'loaded', zeroCopy: read.zeroCopy }, read);
  }

  /** An empty in-memory cache that saves to `directory` (what `load` gives when there is nothing to load). */
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
    return this.dims;
  }

  get size(): number {
    return this.entries.size;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  get(key: string): Float32Array | undefined {
    return this.entries.get(key);
  }

  keys(): IterableIterator<string> {
    return this.entries.keys();
  }

  /** Stores `vector` (kept by reference: do not modify it afterwards). Throws if its length differs from the cache's. */
  set(key: string, vector: Float32Array): void {
    if (this.dims === undefined) {
      if (vector.length === 0) throw new Error('An embedding vector cannot be empty.');
      this.dims = vector.length;
    } else if (vector.length !== this.dims) {
      throw new Error(`An embedding of ${vector.length} dimensions does not fit a cache of ${this.dims} (model ${this.model}).`);
    }
    const existing = this.entries.get(key);
    if (existing === vector) return;
    this.entries.set(key, vector);
    if (existing === undefined) this.writer.added(key);
    else this.writer.replaced(key);
  }

  /** Forgets every vector and their length (vectors of another model's space); the next save empties the files. */
  clear(): void {
    const removed = [...this.entries.keys()];
    this.entries.clear();
    this.dims = undefined;
    this.writer.removed(removed);
  }

  /** Forgets every vector whose key is not in `liveKeys`; the next save compacts the file. */
  prune(liveKeys: ReadonlySet<string>): number {
    const removed = [...this.entries.keys()].filter((key) => !liveKeys.has(key));
    for (const key of removed) this.entries.delete(key);
    this.writer.removed(removed);
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
    return this.writer.save(() => this.dims);
  }
}

export interface CacheLoadInfo {
  /** `missing`: nothing on disk; `modelChanged`: a cache of another model was set aside; `discarded`: unreadable or inconsistent. */
  state: 'loaded' | 'missing' | 'modelChanged' | 'discarded';
  reason?: string;
  /** For `loaded`: whether the rows are a view over the file's buffer (true) or an aligned copy. */
  zeroCopy?: boolean;
}
