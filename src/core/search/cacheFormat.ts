import * as os from 'node:os';

/**
 * The embedding cache's on-disk format, version 1: a directory with two files.
 *
 * - `vectors.f32`: the rows, `dimensions` little-endian float32 each, back to back, nothing else;
 * - `meta.json`: `{ version, model, dimensions, count, endian, keys }`, where `keys[i]` is the key of
 *   row i. The meta file is the commit point: rows past `count` are ignored.
 */
export const VECTORS_FILE = 'vectors.f32';
export const META_FILE = 'meta.json';
export const FORMAT_VERSION = 1;

export interface MetaFile {
  version: number;
  model: string;
  dimensions: number;
  count: number;
  endian: 'LE' | 'BE';
  keys: string[];
}

/** The meta file describing rows `keys` written on this machine. */
export function metaFor(model: string, keys: string[], dimensions: number): MetaFile {
  return { version: FORMAT_VERSION, model, dimensions, count: keys.length, endian: os.endianness(), keys };
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
  if (meta.version !== FORMAT_VERSION) return `format version ${String(meta.version)} is not ${FORMAT_VERSION}`;
  if (typeof meta.model !== 'string') return 'the model is missing';
  if (!Number.isSafeInteger(meta.dimensions) || meta.dimensions! <= 0) return 'the dimensions are not a positive integer';
  if (!Number.isSafeInteger(meta.count) || meta.count! < 0) return 'the count is not a non-negative integer';
  if (meta.endian !== 'LE' && meta.endian !== 'BE') return 'the byte order is missing';
  if (!Array.isArray(meta.keys) || meta.keys.length !== meta.count) return 'the keys do not match the count';
  const seen = new Set<string>();
  for (const key of meta.keys) {
    if (typeof key !== 'string' || seen.has(key)) return 'the keys are not distinct strings';
    seen.add(key);
  }
  return meta as MetaFile;
}
