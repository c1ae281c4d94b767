import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { replaceFile, writeFileAtomically } from '../atomicFile';
import { META_FILE, metaFor, parseMeta, VECTORS_FILE, type MetaFile } from './cacheFormat';
import { float32View } from './float32View';

/** Reading and writing the cache's two files (see `cacheFormat.ts`); no state of its own. */

export type LoadedFiles =
  { state: 'loaded'; meta: MetaFile; rows: Float32Array; zeroCopy: boolean } | { state: 'missing' | 'modelChanged' | 'discarded'; reason: string };

/** The rows on disk for `model`, or why there are none. Throws only when a file cannot be read. */
export async function readCacheFiles(directory: string, model: string): Promise<LoadedFiles> {
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
  const buffer = await fs.readFile(path.join(directory, VECTORS_FILE));
  const needed = meta.count * meta.dimensions * 4;
  if (buffer.byteLength < needed) return { state: 'discarded', reason: `${VECTORS_FILE} holds ${buffer.byteLength} bytes, the meta file promises ${needed}` };
  const { rows, zeroCopy } = float32View(buffer, meta.count * meta.dimensions);
  return { state: 'loaded', meta, rows, zeroCopy };
}

/** Replaces the meta file atomically: the moment the new rows count. */
export async function writeMetaFile(directory: string, model: string, keys: string[], dimensions: number): Promise<void> {
  await writeFileAtomically(path.join(directory, META_FILE), JSON.stringify(metaFor(model, keys, dimensions)));
}

/** Removes the meta file first when rewriting, so a crash mid-way can never pair keys with wrong rows. */
export async function removeMetaFile(directory: string): Promise<void> {
  await fs.rm(path.join(directory, META_FILE), { force: true });
}

/** Replaces the vectors file with one holding exactly `rows`, complete and synced before it appears. */
export async function writeVectorsFile(directory: string, rows: Float32Array[], dimensions: number): Promise<void> {
  await replaceFile(path.join(directory, VECTORS_FILE), async (temp) => {
    const handle = await fs.open(temp, 'w');
    try {
      await writeRows(handle, rows, 0, dimensions);
      await handle.sync();
    } finally {
      await handle.close();
    }
  });
}

/** Writes `rows` after the first `committedRows` rows of the vectors file, cutting off anything beyond. */
export async function appendVectorRows(directory: string, rows: Float32Array[], committedRows: number, dimensions: number): Promise<void> {
  const handle = await fs.open(path.join(directory, VECTORS_FILE), 'r+');
  try {
    const end = committedRows * dimensions * 4;
    await writeRows(handle, rows, end, dimensions);
    await handle.truncate(end + rows.length * dimensions * 4);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes `rows` at `position`, a megabyte or so at a time (no copy of the whole cache in memory). */
async function writeRows(handle: fs.FileHandle, rows: Float32Array[], position: number, dimensions: number): Promise<void> {
  const rowBytes = dimensions * 4;
  const perBlock = Math.max(1, Math.floor((1 << 20) / rowBytes));
  const block = Buffer.allocUnsafeSlow(Math.min(rows.length, perBlock) * rowBytes);
  const blockFloats = new Float32Array(block.buffer, block.byteOffset, block.byteLength / 4);
  for (let i = 0; i < rows.length; i += perBlock) {
    const n = Math.min(perBlock, rows.length - i);
    for (let j = 0; j < n; j++) blockFloats.set(rows[i + j], j * dimensions);
    let written = 0;
    while (written < n * rowBytes) {
      const { bytesWritten } = await handle.write(block, written, n * rowBytes - written, position + written);
      written += bytesWritten;
    }
    position += n * rowBytes;
  }
}
