import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { crc32 } from 'node:zlib';
import { replaceFile, writeFileAtomically } from '../atomicFile';
import { META_FILE, metaFor, parseMeta, VECTORS_FILE, type MetaFile } from './cacheFormat';

/**
 * Reading and writing the cache's two files (see `cacheFormat.ts`); no state of its own. Rows move
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

/**
 * Hands the `meta.count` rows of the vectors file to `take`, in order (`values` is a view reused for
 * the next row: copy what you keep). Returns why the file does not hold them (cut short, or its
 * checksum differs: a crash left it half written), or undefined. Throws when it cannot be read.
 */
export async function readVectorRows(directory: string, meta: MetaFile, take: (row: number, values: Float32Array) => void): Promise<string | undefined> {
  const rowBytes = meta.dimensions * 4;
  const needed = meta.count * rowBytes;
  const handle = await fs.open(path.join(directory, VECTORS_FILE), 'r');
  try {
    const { size } = await handle.stat();
    if (size < needed) return `${VECTORS_FILE} holds ${size} bytes, the meta file promises ${needed}`;
    const { block, floats, rowsPerBlock } = rowBlock(meta.dimensions, meta.count);
    let checksum = 0;
    for (let row = 0; row < meta.count; row += rowsPerBlock) {
      const n = Math.min(rowsPerBlock, meta.count - row);
      const bytes = n * rowBytes;
      for (let read = 0; read < bytes;) {
        const { bytesRead } = await handle.read(block, read, bytes - read, row * rowBytes + read);
        if (bytesRead === 0) return `${VECTORS_FILE} ended early`;
        read += bytesRead;
      }
      checksum = crc32(block.subarray(0, bytes), checksum);
      for (let j = 0; j < n; j++) take(row + j, floats.subarray(j * meta.dimensions, (j + 1) * meta.dimensions));
    }
    if (meta.crc32 !== undefined && checksum !== meta.crc32) return `${VECTORS_FILE} does not match its checksum (a save was cut short)`;
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

/** Replaces the meta file atomically: the moment the new rows count. */
export async function writeMetaFile(directory: string, model: string, keys: string[], dimensions: number, checksum: number): Promise<void> {
  await writeFileAtomically(path.join(directory, META_FILE), JSON.stringify(metaFor(model, keys, dimensions, checksum)));
}

/** Removes the meta file first when rewriting, so a crash mid-way can never pair keys with wrong rows. */
export async function removeMetaFile(directory: string): Promise<void> {
  await fs.rm(path.join(directory, META_FILE), { force: true });
}

/** Replaces the vectors file with one holding exactly `rows`, complete and synced before it appears. Returns their checksum. */
export async function writeVectorsFile(directory: string, rows: RowSource): Promise<number> {
  let checksum = 0;
  await replaceFile(path.join(directory, VECTORS_FILE), async (temp) => {
    const handle = await fs.open(temp, 'w');
    try {
      checksum = await writeRows(handle, rows, 0, 0);
      await handle.sync();
    } finally {
      await handle.close();
    }
  });
  return checksum;
}

/**
 * Writes `rows` after the first `committedRows` rows of the vectors file (whose checksum is
 * `checksum`), cutting off anything beyond. Returns the checksum of all of them.
 */
export async function appendVectorRows(directory: string, rows: RowSource, committedRows: number, checksum: number): Promise<number> {
  const handle = await fs.open(path.join(directory, VECTORS_FILE), 'r+');
  try {
    const end = committedRows * rows.dimensions * 4;
    if ((await handle.stat()).size < end) throw new Error(`${VECTORS_FILE} is shorter than its committed rows`);
    const total = await writeRows(handle, rows, end, checksum);
    await handle.truncate(end + rows.count * rows.dimensions * 4);
    await handle.sync();
    return total;
  } finally {
    await handle.close();
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
    for (let written = 0; written < bytes;) {
      const { bytesWritten } = await handle.write(block, written, bytes - written, position + written);
      written += bytesWritten;
    }
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
