import { promises as fs } from 'node:fs';
import { appendVectorRows, removeMetaFile, writeMetaFile, writeVectorsFile } from './cacheFiles';

/**
 * Keeps the cache's directory in step with its in-memory vectors: knows which keys the files hold
 * (in row order) and which were added since, and on save appends the new rows when it can, else
 * rewrites everything. Saves queue behind each other; vectors set while one runs go into the next.
 */
export class CacheWriter {
  /** Keys of the rows in the vectors file, in row order (what the meta file says). */
  private committed: string[];
  private committedSet: Set<string>;
  /** Keys set since the last save, not yet in the file. */
  private pending: string[] = [];
  /** The file cannot be extended: it was never written, or rows in it are gone or replaced. */
  private needsRewrite: boolean;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly directory: string,
    private readonly model: string,
    /** The cache's vectors (the writer reads them, never changes them). */
    private readonly entries: ReadonlyMap<string, Float32Array>,
    /** Keys of the rows loaded from disk, or undefined when nothing usable was there. */
    loadedKeys: string[] | undefined,
  ) {
    this.committed = loadedKeys ?? [];
    this.committedSet = new Set(this.committed);
    this.needsRewrite = loadedKeys === undefined;
  }

  /** A key new to the cache: the next save can append its row. */
  added(key: string): void {
    this.pending.push(key);
  }

  /** A key whose vector changed: its row in the file is now wrong. */
  replaced(key: string): void {
    if (this.committedSet.has(key)) this.needsRewrite = true;
  }

  /** Keys the cache forgot: the file is compacted when it held any of them. */
  removed(keys: string[]): void {
    if (keys.length === 0) return;
    this.pending = this.pending.filter((key) => this.entries.has(key));
    if (keys.some((key) => this.committedSet.has(key))) this.needsRewrite = true;
  }

  get dirty(): boolean {
    return this.needsRewrite ? this.entries.size > 0 || this.committed.length > 0 : this.pending.length > 0;
  }

  /** Queues a save; `dimensions` is read when it starts (undefined: nothing was ever stored). */
  save(dimensions: () => number | undefined): Promise<void> {
    const run = this.saving.then(() => this.saveNow(dimensions()));
    this.saving = run.catch(() => undefined);
    return run;
  }

  private async saveNow(dimensions: number | undefined): Promise<void> {
    if (!this.dirty) return;
    if (dimensions === undefined) return this.empty();
    await fs.mkdir(this.directory, { recursive: true });
    if (!this.needsRewrite) {
      try {
        return await this.append(dimensions);
      } catch {
        // e.g. the vectors file vanished: fall back to writing everything
      }
    }
    await this.rewrite(dimensions);
  }

  /** Everything was forgotten (and no vector came since): the files on disk no longer count. */
  private async empty(): Promise<void> {
    if (this.entries.size > 0 || this.committed.length === 0) return;
    await removeMetaFile(this.directory);
    this.committed = [];
    this.committedSet = new Set();
    this.needsRewrite = true;
  }

  private async rewrite(dimensions: number): Promise<void> {
    // Snapshot synchronously: vectors set from here on belong to the next save.
    const keys = [...this.entries.keys()];
    const rows = keys.map((key) => this.entries.get(key)!);
    const pendingBefore = this.pending;
    this.pending = [];
    this.needsRewrite = false;
    try {
      await removeMetaFile(this.directory);
      this.committed = [];
      this.committedSet = new Set();
      await writeVectorsFile(this.directory, rows, dimensions);
      await writeMetaFile(this.directory, this.model, keys, dimensions);
      this.committed = keys;
      this.committedSet = new Set(keys);
    } catch (error) {
      this.needsRewrite = true;
      this.pending = [...pendingBefore, ...this.pending];
      throw error;
    }
  }

  private async append(dimensions: number): Promise<void> {
    const keys = this.pending;
    this.pending = [];
    const rows = keys.map((key) => this.entries.get(key)!);
    try {
      await appendVectorRows(this.directory, rows, this.committed.length, dimensions);
      const all = [...this.committed, ...keys];
      await writeMetaFile(this.directory, this.model, all, dimensions);
      this.committed = all;
      for (const key of keys) this.committedSet.add(key);
    } catch (error) {
      this.pending = [...keys, ...this.pending];
      // The meta file may or may not have been replaced: start over with a full rewrite.
      this.needsRewrite = true;
      throw error;
    }
  }
}
