import * as os from 'node:os';

/**
 * The embedding cache's on-disk format, version 2: a directory with two files.
 *
 * - `vectors.f32`: the rows, `dimensions` little-endian float32 each, back to back, nothing else;
 *   each row is the unit vector (the direction) of an embedding, exactly as the search index holds
 *   it, so loading puts the rows in the index's pages as they are;
 * - `meta.json`: `{ version, model, dimensions, count, endian, keys, crc32 }`, where `keys[i]` is the
 *   key of row i and `crc32` the CRC-32 of the first `count` rows' bytes. The meta file is the
 *   commit point: rows past `count` are ignored.
 *
 * Version 1 (the same without `crc32`, the rows as the service sent them, not normalised) is still
 * read: its rows are normalised on load, and the next save writes version 2.
 */
export const VECTORS_FILE = 'vectors.f32';
export const META_FILE = 'meta.json';
export const FORMAT_VERSION = 2;

export interface MetaFile {
  version: 1 | 2;
  model: string;
  dimensions: number;
  count: number;
  endian: 'LE' | 'BE';
  keys: string[];
  /** Version 2: the CRC-32 of the rows' bytes, which tells a vectors file cut short or half written. */
  crc32?: number;
}

/** The meta file describing rows `keys` written on this machine. */
export function metaFor(model: string, keys: string[], dimensions: number, crc32: number): MetaFile {
  return { version: FORMAT_VERSION, model, dimensions, count: keys.length, endian: os.endianness(), keys, crc32 };
}

/** The meta file's content, or why it is unusable. */
export function parseMeta(text: string): MetaFile | string {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return `${META_FILE} is not JSON`;
  }
  if (typeof data !== 'object' || data === null) return `${META_FILE} is not an object`;
  const meta = data as Partial<MetaFile>;
  if (meta.version !== 1 && meta.version !== FORMAT_VERSION) return `format version ${String(meta.version)} is not ${FORMAT_VERSION}`;
  if (typeof meta.model !== 'string') return 'the model is missing';
  if (!Number.isSafeInteger(meta.dimensions) || meta.dimensions! <= 0) return 'the dimensions are not a positive integer';
  if (!Number.isSafeInteger(meta.count) || meta.count! < 0) return 'the count is not a non-negative integer';
  if (meta.endian !== 'LE' && meta.endian !== 'BE') return 'the byte order is missing';
  if (!Array.isArray(meta.keys) || meta.keys.length !== meta.count) return 'the keys do not match the count';
  if (meta.version === FORMAT_VERSION && !Number.isSafeInteger(meta.crc32)) return 'the checksum is missing';
  // Whether they are distinct is seen as they go into the index (its size), not with a set of
  // them all here, which would leave its memory to the heap for nothing on every load.
  for (const key of meta.keys) if (typeof key !== 'string') return 'the keys are not strings';
  return meta as MetaFile;
}
