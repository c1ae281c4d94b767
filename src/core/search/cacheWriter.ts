import { promises as fs } from 'node:fs';
import { appendVectorRows, removeMetaFile, writeMetaFile, writeVectorsFile, type RowSource } from './cacheFiles';

/** What the writer reads of the cache: its keys in storage order and each key's row. */
export interface StoredRows {
  /** The keys in storage order (a removal moves the last key into the hole). */
  keys(): readonly string[];
  /** Undefined while nothing is stored and nothing was loaded. */
  dimensions(): number | undefined;
  /** A count bumped whenever keys leave storage (which reorders it). */
  removals(): number;
  /** Writes the row of `key` into `target`; false when it is no longer stored. */
  read(key: string, target: Float32Array): boolean;
  /** The files now hold the rows of `keys` (row i that of `keys[i]`): the meta file naming them was written. */
  saved(keys: readonly string[]): void;
}

/** A key left the cache while its row was being written: that save starts over. */
class RowsChanged extends Error {}

/** Saves disturbed by removals in a row before one gives up (the next save writes everything anyway). */
const MAX_ATTEMPTS = 3;

/**
 * Keeps the cache's directory in step with its vectors. The file holds the first `committed` keys of
 * storage, in storage order, as long as none of them was replaced or removed since: then a save only
 * appends the rows stored since; otherwise it rewrites everything. Rows are read by key while they
 * are written, so a change during a save can only make the next one a rewrite, never pair a key
 * with another's row. Saves queue behind each other; vectors set while one runs go into the next.
 */
export class CacheWriter {
  /** How many rows of the vectors file count (the meta file's `count`). */
  private committed: number;
  /** The CRC-32 of those rows. */
  private checksum: number;
  /** The file no longer matches the start of storage: it was never written, or a row in it was replaced or removed. */
  private needsRewrite: boolean;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly directory: string,
    private readonly model: string,
    private readonly rows: StoredRows,
    /** What was loaded: its rows are the first of storage, in order; `rewrite` when they are of an older format. */
    loaded: { count: number; checksum: number; rewrite: boolean } | undefined,
  ) {
    this.committed = loaded?.count ?? 0;
    this.checksum = loaded?.checksum ?? 0;
    this.needsRewrite = loaded === undefined || loaded.rewrite;
  }

  /** The vector at `position` in storage was replaced, or removed (the last one moving there). */
  changed(position: number): void {
    if (position < this.committed) this.needsRewrite = true;
  }

  /** Every vector was forgotten. */
  cleared(): void {
    this.needsRewrite = true;
  }

  get dirty(): boolean {
    const size = this.rows.keys().length;
    return this.needsRewrite ? size > 0 || this.committed > 0 : size > this.committed;
  }

  /** Queues a save. */
  save(): Promise<void> {
    const run = this.saving.then(() => this.saveNow());
    this.saving = run.catch(() => undefined);
    return run;
  }

  private async saveNow(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.saveOnce();
      } catch (error) {
        if (!(error instanceof RowsChanged) || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  }

  private async saveOnce(): Promise<void> {
    if (!this.dirty) return;
    const dimensions = this.rows.dimensions();
    if (dimensions === undefined) return this.empty();
    await fs.mkdir(this.directory, { recursive: true });
    if (!this.needsRewrite) {
      try {
        return await this.append(dimensions);
      } catch (error) {
        if (error instanceof RowsChanged) throw error;
        // e.g. the vectors file vanished: fall back to writing everything
      }
    }
    await this.rewrite(dimensions);
  }

  /** Everything was forgotten (and no vector came since): the files on disk no longer count. */
  private async empty(): Promise<void> {
    await removeMetaFile(this.directory);
    this.committed = 0;
    this.checksum = 0;
  }

  private async rewrite(dimensions: number): Promise<void> {
    // Snapshot synchronously: vectors set from here on belong to the next save.
    const keys = this.rows.keys().slice();
    const removals = this.rows.removals();
    this.needsRewrite = false;
    try {
      await removeMetaFile(this.directory);
      this.committed = 0;
      const checksum = await writeVectorsFile(this.directory, this.source(keys, 0, dimensions));
      await writeMetaFile(this.directory, this.model, keys, dimensions, checksum);
      this.commit(keys.length, checksum, removals);
      this.rows.saved(keys);
    } catch (error) {
      this.needsRewrite = true;
      throw error;
    }
  }

  private async append(dimensions: number): Promise<void> {
    const keys = this.rows.keys().slice();
    const removals = this.rows.removals();
    try {
      const checksum = await appendVectorRows(this.directory, this.source(keys, this.committed, dimensions), this.committed, this.checksum);
      await writeMetaFile(this.directory, this.model, keys, dimensions, checksum);
      this.commit(keys.length, checksum, removals);
      this.rows.saved(keys);
    } catch (error) {
      // The meta file may or may not have been replaced: start over with a full rewrite.
      this.needsRewrite = true;
      throw error;
    }
  }

  /** The file now holds `count` rows; if a key left storage meanwhile, storage order no longer matches it. */
  private commit(count: number, checksum: number, removalsBefore: number): void {
    this.committed = count;
    this.checksum = checksum;
    if (this.rows.removals() !== removalsBefore) this.needsRewrite = true;
  }

  /** The rows of `keys` from `from` on, read from storage by key as they are written. */
  private source(keys: readonly string[], from: number, dimensions: number): RowSource {
    return {
      count: keys.length - from,
      dimensions,
      read: (row, target) => {
        if (!this.rows.read(keys[from + row], target)) throw new RowsChanged('a vector left the cache while it was being saved');
      },
    };
  }
}
