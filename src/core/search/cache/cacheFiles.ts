import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { crc32 } from 'node:zlib';
import { replaceFile } from '../../base/atomicFile';
import { isCacheFile, META_FILE, metaFor, parseMeta, type CacheFileNames, type MetaFile } from './cacheFormat';
import type { RowSegment } from './cacheJournal';

/**
 * Reading and writing the cache's files (see `cacheFormat.ts`); no state of its own. Rows move
 * between the file and their owner a block of about a megabyte at a time, so neither reading nor
 * writing ever holds a second copy of the cache.
 */

/** Bytes moved per read or write (rounded down to whole rows, at least one). */
const BLOCK_BYTES = 1 << 20;

export type MetaCheck = { state: 'found'; meta: MetaFile } | { state: 'missing' | 'modelChanged' | 'discarded'; reason: string };

/** The meta file for `model`, or why there is none to use. Throws only when it cannot be read. */
export async function readMetaFile(directory: string, model: string): Promise<MetaCheck> {
  let metaText: string;
  try {
    metaText = await fs.readFile(path.join(directory, META_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'missing', reason: 'no cache on disk' };
    throw error;
  }
  const meta = parseMeta(metaText);
  if (typeof meta === 'string') return { state: 'discarded', reason: meta };
  if (meta.model !== model) return { state: 'modelChanged', reason: `the cache on disk is for model ${meta.model}` };
  if (meta.endian !== os.endianness()) return { state: 'discarded', reason: `the cache on disk is ${meta.endian}` };
  return { state: 'found', meta };
}

/** The bytes of the journal `name` in `directory` (none when it does not exist yet). */
export async function readJournalFile(directory: string, name: string | undefined): Promise<Buffer> {
  if (name === undefined) return Buffer.alloc(0);
  try {
    return await fs.readFile(path.join(directory, name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Buffer.alloc(0);
    throw error;
  }
}

/**
 * Hands the rows of the vectors file `file` that `segments` cover to `take`, in order (`values`
 * is a view reused for the next row: copy what you keep). Returns why the file does not hold them
 * (cut short, or a segment's checksum differs), or undefined. Throws when it cannot be read.
 */
export async function readVectorRows(
  file: string,
  dimensions: number,
  segments: readonly RowSegment[],
  take: (row: number, values: Float32Array) => void,
): Promise<string | undefined> {
  const rowBytes = dimensions * 4;
  const total = segments.reduce((sum, segment) => sum + segment.rows, 0);
  const handle = await fs.open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size < total * rowBytes) return `${path.basename(file)} holds ${size} bytes, the cache promises ${total * rowBytes}`;
    const { block, floats, rowsPerBlock } = rowBlock(dimensions, total);
    let row = 0;
    for (const segment of segments) {
      let checksum = 0;
      for (let done = 0; done < segment.rows;) {
        const n = Math.min(rowsPerBlock, segment.rows - done);
        const bytes = n * rowBytes;
        for (let read = 0; read < bytes;) {
          const { bytesRead } = await handle.read(block, read, bytes - read, row * rowBytes + read);
          if (bytesRead === 0) return `${path.basename(file)} ended early`;
          read += bytesRead;
        }
        checksum = crc32(block.subarray(0, bytes), checksum);
        for (let j = 0; j < n; j++) take(row + j, floats.subarray(j * dimensions, (j + 1) * dimensions));
        row += n;
        done += n;
      }
      if (segment.crc32 !== undefined && checksum !== segment.crc32) return `${path.basename(file)} does not match its checksum (a save was cut short)`;
    }
    return undefined;
  } finally {
    await handle.close();
  }
}

/** Rows to write: `count` rows of `dimensions` floats; `read(row, target)` writes row `row` into `target`. */
export interface RowSource {
  count: number;
  dimensions: number;
  read(row: number, target: Float32Array): void;
}

/** Replaces the meta file atomically, synced before it takes the old one's place: the moment a compaction's files count. */
export async function writeMetaFile(
  directory: string,
  model: string,
  keys: readonly string[],
  dimensions: number,
  checksum: number,
  names: CacheFileNames,
): Promise<void> {
  const text = JSON.stringify(metaFor(model, keys, dimensions, checksum, names));
  await replaceFile(path.join(directory, META_FILE), (temp) => writeSynced(temp, Buffer.from(text, 'utf8')));
}

/** Writes a new vectors file `file` holding exactly `rows`, synced; returns their checksum. Removed again if that fails. */
export async function writeVectorsFile(file: string, rows: RowSource): Promise<number> {
  try {
    const handle = await fs.open(file, 'wx');
    try {
      const checksum = await writeRows(handle, rows, 0, 0);
      await handle.sync();
      return checksum;
    } finally {
      await handle.close();
    }
  } catch (error) {
    await fs.rm(file, { force: true });
    throw error;
  }
}

/**
 * Writes `rows` after the first `committedRows` rows of the vectors file `file`, cutting off
 * anything beyond (what a save cut short left), and syncs. Returns their checksum. Throws if the
 * file holds fewer rows than committed.
 */
export async function appendVectorRows(file: string, rows: RowSource, committedRows: number): Promise<number> {
  const handle = await fs.open(file, 'r+');
  try {
    const end = committedRows * rows.dimensions * 4;
    if ((await handle.stat()).size < end) throw new ShortFileError(`${path.basename(file)} is shorter than its committed rows`);
    await handle.truncate(end);
    const checksum = await writeRows(handle, rows, end, 0);
    await handle.sync();
    return checksum;
  } finally {
    await handle.close();
  }
}

/** A file holds less than what was committed to it: only a compaction can put things right. */
export class ShortFileError extends Error {}

/** Writes `line` after the first `committedBytes` of the journal `file` (made if missing), cutting off anything beyond, and syncs. */
export async function appendJournalLine(file: string, line: Buffer, committedBytes: number): Promise<void> {
  const handle = await fs.open(file, committedBytes === 0 ? 'w' : 'r+');
  try {
    if ((await handle.stat()).size < committedBytes) throw new ShortFileError(`${path.basename(file)} is shorter than its committed lines`);
    await handle.truncate(committedBytes);
    await writeAll(handle, line, committedBytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Removes the cache's files in `directory` other than `keep` (files of an older generation, of a
 * compaction or a save cut short, temp files); a file that cannot be removed now (open on Windows)
 * is left to the next time.
 */
export async function removeOtherFiles(directory: string, keep: readonly string[]): Promise<void> {
  let names: string[];
  try {
    names = await fs.readdir(directory);
  } catch {
    return;
  }
  const stale = names.filter((name) => isCacheFile(name) && !keep.includes(name));
  await Promise.all(stale.map((name) => fs.rm(path.join(directory, name), { force: true }).catch(() => undefined)));
}

async function writeSynced(file: string, data: Buffer): Promise<void> {
  const handle = await fs.open(file, 'w');
  try {
    await writeAll(handle, data, 0);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function writeAll(handle: fs.FileHandle, data: Uint8Array, position: number): Promise<void> {
  for (let written = 0; written < data.length;) {
    const { bytesWritten } = await handle.write(data, written, data.length - written, position + written);
    written += bytesWritten;
  }
}

/** Writes `rows` at `position`, a block at a time; returns `checksum` continued over their bytes. */
async function writeRows(handle: fs.FileHandle, rows: RowSource, position: number, checksum: number): Promise<number> {
  const { dimensions, count } = rows;
  const rowBytes = dimensions * 4;
  const { block, floats, rowsPerBlock } = rowBlock(dimensions, count);
  for (let i = 0; i < count; i += rowsPerBlock) {
    const n = Math.min(rowsPerBlock, count - i);
    for (let j = 0; j < n; j++) rows.read(i + j, floats.subarray(j * dimensions, (j + 1) * dimensions));
    const bytes = n * rowBytes;
    checksum = crc32(block.subarray(0, bytes), checksum);
    await writeAll(handle, block.subarray(0, bytes), position);
    position += bytes;
  }
  return checksum;
}

/** A buffer of whole rows (about BLOCK_BYTES, no more than `count` rows) and its float view. */
function rowBlock(dimensions: number, count: number): { block: Buffer; floats: Float32Array; rowsPerBlock: number } {
  const rowBytes = dimensions * 4;
  const rowsPerBlock = Math.max(1, Math.min(count, Math.floor(BLOCK_BYTES / rowBytes)));
  // Not from the shared pool, so it starts at byte 0 of its own ArrayBuffer: a Float32Array can view it.
  const block = Buffer.allocUnsafeSlow(rowsPerBlock * rowBytes);
  return { block, floats: new Float32Array(block.buffer, block.byteOffset, block.byteLength / 4), rowsPerBlock };
}

/** Whether `error` says the disk (or the user's quota on it) is full. */
export function isDiskFull(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}
