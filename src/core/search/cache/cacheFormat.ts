import * as os from 'node:os';

/**
 * The embedding cache's on-disk format, version 3: a directory with three files.
 *
 * - `meta.json`, the commit point of the last compaction: `{ version, model, dimensions, count,
 *   endian, keys, crc32, vectors, journal }`, where `vectors` and `journal` name the two other
 *   files, `keys[i]` is the key of row i of the vectors file and `crc32` the CRC-32 of those
 *   `count` rows' bytes;
 * - the vectors file (`vectors-<id>.f32`): the rows, `dimensions` little-endian float32 each, back
 *   to back, nothing else; each row is the unit vector (the direction) of an embedding, exactly as
 *   the search index holds it, so loading puts the rows in the index's pages as they are. Rows are
 *   only ever appended: a replaced or removed vector leaves a dead row behind until the next
 *   compaction writes a new vectors file (under a new name) and the meta file naming it;
 * - the journal (`journal-<id>.log`): one line per save since the compaction, each the commit point
 *   of that save (see cacheJournal.ts): the keys of the rows it appended and of the vectors it
 *   removed. A line cut short or not matching its checksum ends the journal: a save was cut short,
 *   and the rows it wrote past the last good line are ignored.
 *
 * Nothing in a file that the meta file names is ever overwritten: a compaction writes new files
 * and switches to them by replacing the meta file (temp file + rename), then deletes the old ones.
 * A crash at any point leaves the previous state readable.
 *
 * Versions 1 (rows as the service sent them, not normalised, no checksum) and 2 (unit rows and a
 * checksum, no journal) name no files: theirs is `vectors.f32`. Both are still read, and the next
 * save compacts them into version 3.
 */
export const LEGACY_VECTORS_FILE = 'vectors.f32';
export const META_FILE = 'meta.json';
export const FORMAT_VERSION = 3;

export interface MetaFile {
  version: 1 | 2 | 3;
  model: string;
  dimensions: number;
  count: number;
  endian: 'LE' | 'BE';
  keys: string[];
  /** Versions 2 and 3: the CRC-32 of the rows' bytes, which tells a vectors file cut short or half written. */
  crc32?: number;
  /** Version 3: the vectors file's name ({@link LEGACY_VECTORS_FILE} before). */
  vectors?: string;
  /** Version 3: the journal's name. */
  journal?: string;
}

/** The names of one generation of the cache's files. */
export interface CacheFileNames {
  vectors: string;
  journal: string;
}

/** The names of the files a compaction writes: new ones, never those the meta file names. */
export function generationNames(id: string): CacheFileNames {
  return { vectors: `vectors-${id}.f32`, journal: `journal-${id}.log` };
}

/** Whether `name` is one of the files the cache writes in its directory (a temp file of it included). */
export function isCacheFile(name: string): boolean {
  return /^(vectors(-[0-9a-f]+)?\.f32|journal-[0-9a-f]+\.log|meta\.json)$/.test(name) || (/^(vectors|journal|meta)/.test(name) && name.endsWith('.tmp'));
}

/** The files a meta file names. */
export function namesOf(meta: MetaFile): { vectors: string; journal?: string } {
  return { vectors: meta.vectors ?? LEGACY_VECTORS_FILE, journal: meta.journal };
}

/** The meta file describing rows `keys` in the files `names`, written on this machine. */
export function metaFor(model: string, keys: readonly string[], dimensions: number, crc32: number, names: CacheFileNames): MetaFile {
  return { version: FORMAT_VERSION, model, dimensions, count: keys.length, endian: os.endianness(), keys: keys as string[], crc32, ...names };
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
  if (meta.version !== 1 && meta.version !== 2 && meta.version !== FORMAT_VERSION) return `format version ${String(meta.version)} is not ${FORMAT_VERSION}`;
  if (typeof meta.model !== 'string') return 'the model is missing';
  if (!Number.isSafeInteger(meta.dimensions) || meta.dimensions! <= 0) return 'the dimensions are not a positive integer';
  if (!Number.isSafeInteger(meta.count) || meta.count! < 0) return 'the count is not a non-negative integer';
  if (meta.endian !== 'LE' && meta.endian !== 'BE') return 'the byte order is missing';
  if (!Array.isArray(meta.keys) || meta.keys.length !== meta.count) return 'the keys do not match the count';
  if (meta.version !== 1 && !Number.isSafeInteger(meta.crc32)) return 'the checksum is missing';
  if (meta.version === FORMAT_VERSION && !(/^vectors-[0-9a-f]+\.f32$/.test(String(meta.vectors)) && /^journal-[0-9a-f]+\.log$/.test(String(meta.journal))))
    return 'the files are not named';
  // Whether they are distinct is seen as they go into the index (its size), not with a set of
  // them all here, which would leave its memory to the heap for nothing on every load.
  for (const key of meta.keys) if (typeof key !== 'string') return 'the keys are not strings';
  return meta as MetaFile;
}
