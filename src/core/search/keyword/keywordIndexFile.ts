import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { KeywordIndex, type KeywordIndexSnapshot } from './keywordIndex';

/**
 * The keyword index of chunk texts, kept beside the embedding cache so that a window that opens
 * reads it instead of splitting every chunk into words and packing their postings again (most of a
 * rescan's time once no file is parsed). With it goes, per file, the cache key and document of each
 * chunk: a chunk whose key (its text) is the same takes its document back; one that changed is
 * split again, and the documents no chunk took back are removed (see chunkKeywords.ts).
 *
 * The file: a 4-byte little-endian length, a JSON header of that many bytes (format, stamp,
 * the arrays' names and sizes, the files), then the arrays' bytes, each from a multiple of 4.
 * A file that is missing, cut short, of another format or stamp, or whose arrays do not fit
 * together is no index: the caller rebuilds from the texts.
 */

export const KEYWORDS_FILE = 'keywords.bin';
const FORMAT = 1;

/** A file's chunks in the saved index: their cache keys and, in the same order, their documents. */
export type SavedFileDocs = [keys: string[], docs: number[]];

export interface SavedKeywords {
  index: KeywordIndex;
  /** By path. */
  files: Map<string, SavedFileDocs>;
}

interface Header {
  format: number;
  stamp: string;
  arrays: [name: keyof KeywordIndexSnapshot, bytes: number][];
  files: Record<string, SavedFileDocs>;
}

const ARRAY_TYPES = {
  hashFirst: Uint32Array,
  hashSecond: Uint32Array,
  wordIds: Int32Array,
  postingBytes: Uint8Array,
  postingStarts: Uint32Array,
  lengths: Uint32Array,
  states: Uint8Array,
} as const;

/** Writes `snapshot` and `files` to `directory` (to a new file, then renamed over the old one). */
export async function saveKeywords(directory: string, stamp: string, snapshot: KeywordIndexSnapshot, files: Map<string, SavedFileDocs>): Promise<void> {
  const names = Object.keys(ARRAY_TYPES) as (keyof KeywordIndexSnapshot)[];
  const header: Header = { format: FORMAT, stamp, arrays: names.map((name) => [name, snapshot[name].byteLength]), files: Object.fromEntries(files) };
  const json = Buffer.from(JSON.stringify(header));
  const parts: Uint8Array[] = [Buffer.from(Uint32Array.of(json.length).buffer), json, padding(4 + json.length)];
  for (const name of names) {
    const array = snapshot[name];
    parts.push(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), padding(array.byteLength));
  }
  const file = path.join(directory, KEYWORDS_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  await fs.mkdir(directory, { recursive: true });
  await fs.writeFile(temporary, parts);
  await fs.rename(temporary, file);
}

/** The index saved in `directory` under `stamp`, or undefined when there is none to use (see the module comment). */
export async function loadKeywords(directory: string, stamp: string): Promise<SavedKeywords | undefined> {
  try {
    const bytes = await fs.readFile(path.join(directory, KEYWORDS_FILE));
    const length = bytes.readUInt32LE(0);
    const header = JSON.parse(bytes.toString('utf8', 4, 4 + length)) as Header;
    if (header?.format !== FORMAT || header.stamp !== stamp || !Array.isArray(header.arrays) || typeof header.files !== 'object') return undefined;
    const arrays: Partial<Record<string, ArrayBufferView>> = {};
    let at = aligned(4 + length);
    for (const [name, size] of header.arrays) {
      const type = ARRAY_TYPES[name];
      if (!type || !Number.isInteger(size) || size < 0 || size % type.BYTES_PER_ELEMENT !== 0 || at + size > bytes.length) return undefined;
      // A copy of its own: the file's buffer is let go, and typed arrays need aligned offsets.
      arrays[name] = new type(bytes.buffer.slice(bytes.byteOffset + at, bytes.byteOffset + at + size));
      at = aligned(at + size);
    }
    if (at !== bytes.length || Object.keys(ARRAY_TYPES).some((name) => arrays[name] === undefined)) return undefined;
    const index = KeywordIndex.restore(arrays as unknown as KeywordIndexSnapshot);
    // Every held document belongs to one chunk, and no chunk's to another.
    const files = new Map<string, SavedFileDocs>();
    const seen = new Set<number>();
    for (const [file, docs] of Object.entries(header.files)) {
      if (!Array.isArray(docs?.[0]) || !Array.isArray(docs[1]) || docs[0].length !== docs[1].length) return undefined;
      for (const doc of docs[1]) {
        if (!index.holds(doc) || seen.has(doc)) return undefined;
        seen.add(doc);
      }
      files.set(file, docs);
    }
    return seen.size === index.size ? { index, files } : undefined;
  } catch {
    return undefined;
  }
}

function aligned(offset: number): number {
  return Math.ceil(offset / 4) * 4;
}

/** Zero bytes that bring `length` to a multiple of 4. */
function padding(length: number): Uint8Array {
  return new Uint8Array(aligned(length) - length);
}
