/**
 * Bytes the embedding cache writes to disk when one file is edited, against that file's own rows
 * and against a rewrite of the whole cache (what every save after an edit cost before the cache
 * wrote only what changed). Prints; asserts nothing (test/unit/core/search/cache/cacheSafety.test.ts,
 * embeddingCache.test.ts and vectorRows.test.ts check correctness).
 *
 * A cache of N chunks (1,024 dimensions, random unit vectors: the bytes written do not depend on
 * the values) in files of 10 chunks each is saved, then files are edited one at a time as the
 * workspace index does after a save in the editor: the chunks whose text changed get new vectors
 * (new keys), the old ones are pruned, the cache is saved. Two kinds of edit: one chunk of the file
 * changed (a line typed), and all ten (the file rewritten). Bytes are the process's `wchar` from
 * /proc/self/io around each save (every byte handed to write(2): rows, journal line, meta file).
 *
 * An edit appends its new rows and a journal line; its dead rows wait for a compaction, which
 * writes every live row once more than a third of the file is dead. Its cost is measured once (a
 * prune that kills a third) and spread over the edits that lead to it: per dead row, the
 * compaction's bytes over the dead rows that trigger it (half the live ones). `per edit, with
 * compaction` is what an edit costs in the long run.
 *
 *   node out/test/bench/cacheWrites.js [--sizes 20000,100000] [--edits 40] [--dimensions 1024]
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EmbeddingCache } from '../../src/core/search/cache/embeddingCache';
import { seededRandom, type Random } from '../emulator/random';
import { listOption, numberOption } from './options';
import { median } from './stats';

const sizes = listOption('sizes', '20000,100000');
const edits = numberOption('edits', 40);
const dimensions = numberOption('dimensions', 1024);
const CHUNKS_PER_FILE = 10;
const MODEL = 'Embeddings';

/** Bytes this process has handed to write(2) so far (Linux). */
function bytesWritten(): number {
  const match = /^wchar: (\d+)$/m.exec(fs.readFileSync('/proc/self/io', 'utf8'));
  if (!match) throw new Error('/proc/self/io has no wchar');
  return Number(match[1]);
}

/** Bytes `save` writes. */
async function measured(save: () => Promise<void>): Promise<number> {
  const before = bytesWritten();
  await save();
  return bytesWritten() - before;
}

function randomVector(random: Random): Float32Array {
  const vector = new Float32Array(dimensions);
  for (let i = 0; i < dimensions; i++) vector[i] = random() * 2 - 1;
  return vector;
}

interface Figures {
  n: number;
  fileRowBytes: number;
  rewrite: number;
  oneChunk: number;
  wholeFile: number;
  compactionPerDeadRow: number;
}

async function measure(n: number): Promise<Figures> {
  const random = seededRandom(n);
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'gigachat-bench-writes-'));
  try {
    const cache = await EmbeddingCache.load(directory, MODEL);
    const files: string[][] = [];
    let next = 0;
    const newKey = () => cache.keyFor(`chunk ${next++}`);
    for (let f = 0; f < n / CHUNKS_PER_FILE; f++) {
      const keys = Array.from({ length: CHUNKS_PER_FILE }, newKey);
      for (const key of keys) cache.set(key, randomVector(random));
      files.push(keys);
    }
    // The first save writes everything: what every save after an edit wrote before.
    const rewrite = await measured(() => cache.save());
    const live = new Set(files.flat());

    /** Edits a file: `changed` of its chunks get new text (new keys, new vectors), the old ones are pruned; returns the bytes its save wrote. */
    const edit = async (changed: number): Promise<number> => {
      const file = files[Math.floor(random() * files.length)];
      for (let c = 0; c < changed; c++) {
        live.delete(file[c]);
        file[c] = newKey();
        live.add(file[c]);
        cache.set(file[c], randomVector(random));
      }
      cache.prune(live);
      return measured(() => cache.save());
    };
    // Kept below the compaction threshold, so these are the appends alone.
    const oneChunk = median(await sequence(edits, () => edit(1)));
    const wholeFile = median(await sequence(edits, () => edit(CHUNKS_PER_FILE)));
    if (cache.deadRows === 0) throw new Error('the edits compacted: raise the cache size or lower --edits');

    // A compaction: a third of the files deleted at once.
    const dead = files.splice(0, Math.ceil(files.length / 3)).flat();
    for (const key of dead) live.delete(key);
    cache.prune(live);
    const deadBefore = cache.deadRows;
    const liveRows = cache.size;
    const compaction = await measured(() => cache.save());
    if (cache.deadRows !== 0) throw new Error(`no compaction after ${deadBefore} dead rows`);
    // It writes the live rows once the dead ones pass half of them (a third of the file).
    const compactionPerDeadRow = compaction / liveRows / (1 / 2);
    return { n, fileRowBytes: CHUNKS_PER_FILE * dimensions * 4, rewrite, oneChunk, wholeFile, compactionPerDeadRow };
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

async function sequence(count: number, run: () => Promise<number>): Promise<number[]> {
  const results: number[] = [];
  for (let i = 0; i < count; i++) results.push(await run());
  return results;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const times = (x: number) => `${x < 10 ? x.toFixed(2) : x.toFixed(0)}×`;

async function main(): Promise<void> {
  const results: Figures[] = [];
  for (const n of sizes) results.push(await measure(n));
  console.log(
    `Cache writes per edited file: ${dimensions} dimensions, files of ${CHUNKS_PER_FILE} chunks (their rows: ${kb(CHUNKS_PER_FILE * dimensions * 4)}), median of ${edits} edits; bytes handed to write(2)`,
  );
  const rows: [string, (f: Figures) => string, string][] = [
    ['a full rewrite of the cache (every save, before)', (f) => mb(f.rewrite), ''],
    ['one chunk changed: appended', (f) => kb(f.oneChunk), ''],
    ['  with compaction, in the long run', (f) => kb(f.oneChunk + f.compactionPerDeadRow), ''],
    ['  / the file’s rows', (f) => times((f.oneChunk + f.compactionPerDeadRow) / f.fileRowBytes), '≤ 4×'],
    ['whole file changed: appended', (f) => kb(f.wholeFile), ''],
    ['  with compaction, in the long run', (f) => kb(f.wholeFile + CHUNKS_PER_FILE * f.compactionPerDeadRow), ''],
    ['  / the file’s rows', (f) => times((f.wholeFile + CHUNKS_PER_FILE * f.compactionPerDeadRow) / f.fileRowBytes), '≤ 4×'],
    ['  a full rewrite / this', (f) => times(f.rewrite / (f.wholeFile + CHUNKS_PER_FILE * f.compactionPerDeadRow)), ''],
  ];
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  const cell = 20;
  console.log(`${''.padEnd(width)}${results.map((f) => `N = ${f.n.toLocaleString('en-US')}`.padEnd(cell)).join('')}target`);
  for (const [label, value, target] of rows) console.log(`${label.padEnd(width)}${results.map((f) => value(f).padEnd(cell)).join('')}${target}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
