import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { appendJournalLine, appendVectorRows, removeOtherFiles, ShortFileError, writeMetaFile, writeVectorsFile, type RowSource } from './cacheFiles';
import { generationNames, META_FILE, type CacheFileNames } from './cacheFormat';
import { journalLine } from './cacheJournal';

/** What the writer reads of the cache: its keys, which of their rows are not in the vectors file yet, and each key's row. */
export interface StoredRows {
  /** Every key stored. */
  keys(): readonly string[];
  /** The keys whose row is held in memory, not in the vectors file (set since the last save). */
  unsaved(): readonly string[];
  /** How many keys {@link unsaved} would give. */
  unsavedCount(): number;
  /** Undefined while nothing is stored and nothing was loaded. */
  dimensions(): number | undefined;
  /** Writes the row of `key` into `target`; false when it is no longer stored. */
  read(key: string, target: Float32Array): boolean;
  /** The vectors file `file` now holds the rows of `keys` from row `firstRow` on (a save committed them). */
  saved(file: string, keys: readonly string[], firstRow: number): void;
}

/** The files a loaded cache was read from, and how far they count. */
export interface LoadedFiles {
  names: CacheFileNames;
  /** Rows of the vectors file that count (the rest, past the last good journal line, is cut off by the next save). */
  rows: number;
  /** Bytes of the journal that count. */
  journalBytes: number;
  /** The files are of an older format (or damaged beyond their last good line in a way only a compaction heals). */
  compact: boolean;
}

/** A key left the cache while its row was being written: that save starts over. */
class RowsChanged extends Error {}

/** Saves disturbed by removals in a row before one gives up (the next save writes everything anyway). */
const MAX_ATTEMPTS = 3;

/** Directories a writer of this process is saving to now, with how many saves are queued there. */
const writing = new Map<string, number>();

/**
 * Whether a cache of this process is saving to `directory` now: then a file there that its meta
 * file does not name may be a compaction under way, not one a save cut short left behind.
 */
export function isBeingWritten(directory: string): boolean {
  return writing.has(path.resolve(directory));
}

/** The vectors file is compacted once more than this share of its rows are dead (replaced or removed). */
export const DEAD_SHARE = 1 / 3;

/**
 * Keeps the cache's directory in step with its vectors, writing only what changed (see
 * cacheFormat.ts): a save appends the rows set since the last one to the vectors file, then one
 * journal line naming their keys and the keys removed since; the rows a replace or a removal left
 * dead stay in the file. Once more than {@link DEAD_SHARE} of its rows are dead, the save goes on
 * to compact it: every live row into a new vectors file, then the meta file naming it replaces the
 * old one, the commit point, and only then the old files are deleted. Until each commit point the
 * previous state stays on disk, whole and readable: a save that fails (a full disk) or is killed
 * loses nothing that was saved before, and is simply written again by the next one.
 *
 * Rows are read by key while they are written, so a change during a save can only leave work for
 * the next one, never pair a key with another's row. Saves queue behind each other; vectors set
 * while one runs go into the next.
 */
export class CacheWriter {
  private names: CacheFileNames | undefined;
  /** Rows of the vectors file that count. */
  private fileRows: number;
  /** Bytes of the journal that count. */
  private journalBytes: number;
  /** The next save compacts: nothing was written yet, the files are of an older format, or they cannot be appended to. */
  private needsCompaction: boolean;
  /** Keys removed since the last save (their rows, if in the file, are dead once a journal line says so). */
  private removed = new Set<string>();
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly directory: string,
    private readonly model: string,
    private readonly rows: StoredRows,
    loaded: LoadedFiles | undefined,
  ) {
    this.names = loaded?.names;
    this.fileRows = loaded?.rows ?? 0;
    this.journalBytes = loaded?.journalBytes ?? 0;
    this.needsCompaction = loaded === undefined || loaded.compact;
  }

  /** The vector stored under `key` was removed. */
  removedKey(key: string): void {
    this.removed.add(key);
  }

  /** Every vector was forgotten. */
  cleared(): void {
    this.needsCompaction = true;
    this.removed.clear();
  }

  /** Rows of the vectors file that no stored key reads any more. */
  get deadRows(): number {
    return this.fileRows - (this.rows.keys().length - this.rows.unsavedCount());
  }

  /** The vectors file the rows are read from now (undefined before the first save). */
  get vectorsFile(): string | undefined {
    return this.names && path.join(this.directory, this.names.vectors);
  }

  get dirty(): boolean {
    if (this.needsCompaction) return this.rows.keys().length > 0 || this.names !== undefined;
    return this.rows.unsavedCount() > 0 || this.removed.size > 0 || this.compactionDue;
  }

  /** More than {@link DEAD_SHARE} of the vectors file's rows are dead. */
  private get compactionDue(): boolean {
    return this.deadRows > DEAD_SHARE * this.fileRows;
  }

  /** Queues a save. */
  save(): Promise<void> {
    const directory = path.resolve(this.directory);
    writing.set(directory, (writing.get(directory) ?? 0) + 1);
    const run = this.saving.then(() => this.saveNow());
    this.saving = run.catch(() => undefined);
    return run.finally(() => {
      const left = writing.get(directory)! - 1;
      if (left === 0) writing.delete(directory);
      else writing.set(directory, left);
    });
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
    if (dimensions === undefined || this.rows.keys().length === 0) return this.empty();
    await fs.mkdir(this.directory, { recursive: true });
    if (!this.needsCompaction && (this.rows.unsavedCount() > 0 || this.removed.size > 0)) await this.append(dimensions);
    if (this.needsCompaction || this.compactionDue) await this.compact(dimensions);
  }

  /** Nothing is stored (and nothing came since): the files on disk no longer count. */
  private async empty(): Promise<void> {
    await removeOtherFiles(this.directory, []);
    this.names = undefined;
    this.fileRows = 0;
    this.journalBytes = 0;
    this.needsCompaction = true;
    this.removed.clear();
  }

  /** Appends the rows set since the last save, then the journal line that commits them and the removals. */
  private async append(dimensions: number): Promise<void> {
    const names = this.names!;
    const keys = this.rows.unsaved().slice();
    const dead = [...this.removed];
    this.removed = new Set();
    try {
      const rows = this.source(keys, dimensions);
      const checksum = keys.length === 0 ? 0 : await appendVectorRows(path.join(this.directory, names.vectors), rows, this.fileRows);
      const line = journalLine({ rows: keys.length, crc32: checksum, add: keys, dead });
      await appendJournalLine(path.join(this.directory, names.journal), line, this.journalBytes);
      this.journalBytes += line.length;
      const firstRow = this.fileRows;
      this.fileRows += keys.length;
      this.rows.saved(path.join(this.directory, names.vectors), keys, firstRow);
    } catch (error) {
      // Nothing of this save counts: it is written again by the next one (a full disk included).
      for (const key of dead) this.removed.add(key);
      if (error instanceof ShortFileError || (error as NodeJS.ErrnoException).code === 'ENOENT') this.needsCompaction = true;
      throw error;
    }
  }

  /** Writes every stored row into new files and switches to them; the old ones stay whole until the switch. */
  private async compact(dimensions: number): Promise<void> {
    const keys = this.rows.keys().slice();
    const removed = this.removed;
    this.removed = new Set();
    const names = generationNames(randomBytes(6).toString('hex'));
    const vectors = path.join(this.directory, names.vectors);
    try {
      const checksum = await writeVectorsFile(vectors, this.source(keys, dimensions));
      await writeMetaFile(this.directory, this.model, keys, dimensions, checksum, names);
    } catch (error) {
      // The files in use were not touched: only this compaction's own goes (its temp meta file already has).
      await fs.rm(vectors, { force: true });
      for (const key of removed) this.removed.add(key);
      throw error;
    }
    this.names = names;
    this.fileRows = keys.length;
    this.journalBytes = 0;
    this.needsCompaction = false;
    this.rows.saved(vectors, keys, 0);
    await removeOtherFiles(this.directory, [META_FILE, names.vectors, names.journal]);
  }

  /** The rows of `keys`, read from storage by key as they are written. */
  private source(keys: readonly string[], dimensions: number): RowSource {
    return {
      count: keys.length,
      dimensions,
      read: (row, target) => {
        if (!this.rows.read(keys[row], target)) throw new RowsChanged('a vector left the cache while it was being saved');
      },
    };
  }
}
