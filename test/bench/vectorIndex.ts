/**
 * The vector index's search cost against a native read of the same bytes, usearch's exact search
 * and a naive implementation. Prints; asserts nothing (test/unit/vectorIndex.test.ts and
 * vectorRows.test.ts check correctness).
 *
 * For N = 10,000 and 100,000 vectors of 1,024 dimensions (synthetic, clustered like embeddings:
 * 256 centroids plus noise, a few dimensions with a larger spread), k = 10, queries drawn the
 * same way, medians after warm-up:
 *   - index: VectorIndex.search as the product runs it, its float32 rows saved to a vectors file
 *     and read back from there for the exact scores (its WebAssembly SIMD kernels: a scan of every
 *     vector's rounded halves, then exact float scores for the few that could rank), and the same
 *     with its plain JavaScript loops, as where SIMD is unavailable (slower: each rounded value is
 *     looked up);
 *   - floor: a native read of every byte of the N × 1,024 floats once: Buffer.indexOf of a byte
 *     they do not hold (memchr, in C). The index's first pass reads half of those bytes, so it can
 *     go below;
 *   - usearch: its exact (brute-force) cosine search over the same float32 vectors, 2 threads;
 *   - naive: number[][] and, per pair, the cosine with both norms, then a full sort;
 *   - memory per vector: process.memoryUsage() deltas (external, which counts WebAssembly
 *     memories and ArrayBuffers, for the pages; heapUsed for ids and maps) around building the
 *     index and saving its rows to the file, after garbage collection.
 *
 *   node out/test/bench/vectorIndex.js [--sizes 10000,100000] [--queries 50] [--dimensions 1024]
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { VectorIndex, type VectorMatch } from '../../src/core/search/vectorIndex';
import { type Random, seededRandom } from '../emulator/random';
import { median } from './stats';
import { option } from './options';

const sizes = option('sizes', '10000,100000').split(',').map(Number);
const queryCount = Number(option('queries', '50'));
const dimensions = Number(option('dimensions', '1024'));
const k = 10;
const WARM_UP = 5;

v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

/**
 * Collects garbage and lets V8 finish freeing array buffers (it does that after the collection,
 * off the main thread), so memoryUsage() no longer counts an index that was just dropped.
 */
async function gc(): Promise<void> {
  collect();
  await new Promise((resolve) => setTimeout(resolve, 100));
  collect();
}

/** The ms of each `run(i)` for i = 0 … runs-1, after `warmUp` untimed calls. */
function timings(runs: number, warmUp: number, run: (i: number) => void): number[] {
  for (let i = 0; i < warmUp; i++) run(i % runs);
  const taken: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    run(i);
    taken.push(performance.now() - started);
  }
  return taken;
}

/** Median ms of `run(i)` for i = 0 … runs-1, after `warmUp` untimed calls. */
function time(runs: number, warmUp: number, run: (i: number) => void): number {
  return median(timings(runs, warmUp, run));
}

// ---- data -------------------------------------------------------------------------------------

/** Embedding-like vectors: a centroid (of 256) plus as much noise, a few wide dimensions. */
class Generator {
  private readonly centroids: Float32Array[] = [];
  private readonly spread: Float32Array;

  constructor(private readonly random: Random) {
    this.spread = new Float32Array(dimensions);
    for (let i = 0; i < dimensions; i++) this.spread[i] = 1 + 4 * random() ** 12;
    for (let c = 0; c < 256; c++) {
      const centroid = new Float32Array(dimensions);
      for (let i = 0; i < dimensions; i++) centroid[i] = (random() * 2 - 1) * Math.sqrt(3 / dimensions);
      this.centroids.push(centroid);
    }
  }

  /** Writes one vector into `target` at `at`. */
  next(target: Float32Array, at: number): void {
    const random = this.random;
    const centroid = this.centroids[Math.floor(random() * this.centroids.length)];
    const noise = 0.9 * Math.sqrt(3 / dimensions);
    for (let i = 0; i < dimensions; i++) target[at + i] = (centroid[i] + (random() * 2 - 1) * noise) * this.spread[i];
  }
}

// ---- floor: a native read of every byte ------------------------------------------------------

/**
 * Median ms of a native scan of the bytes of `data` (memchr, through Buffer.indexOf) for a byte
 * they do not hold: a copy of them with that byte changed, so the scan reads them all.
 */
function floor(data: Float32Array, runs: number): number {
  const absent = 0x7b;
  const bytes = Buffer.from(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === absent) bytes[i] = absent + 1;
  return time(runs, 3, () => {
    if (bytes.indexOf(absent) !== -1) throw new Error('the floor found the byte it should not');
  });
}

// ---- usearch: its exact search ------------------------------------------------------------------

interface USearch {
  exactSearch(dataset: Float32Array, queries: Float32Array, dimensions: number, count: number, metric: string, threads: number): unknown;
}

/** usearch, when installed (a devDependency for this comparison only). */
function usearch(): USearch | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('usearch') as USearch;
  } catch {
    return undefined;
  }
}

/** Median ms of usearch's exact cosine search of one query (2 threads), or undefined without usearch. */
function usearchExact(data: Float32Array, queries: Float32Array[], runs: number): number | undefined {
  const library = usearch();
  if (!library) return undefined;
  return time(runs, WARM_UP, (q) => {
    library.exactSearch(data, queries[q], dimensions, k, 'cos', 2);
  });
}

// ---- naive baseline ---------------------------------------------------------------------------

function naiveSearch(vectors: number[][], query: number[], limit: number): { index: number; score: number }[] {
  const scored = vectors.map((vector, index) => {
    let dot = 0;
    let a = 0;
    let b = 0;
    for (let i = 0; i < vector.length; i++) {
      dot += vector[i] * query[i];
      a += vector[i] * vector[i];
      b += query[i] * query[i];
    }
    return { index, score: dot / (Math.sqrt(a) * Math.sqrt(b)) };
  });
  scored.sort((x, y) => y.score - x.score);
  return scored.slice(0, limit);
}

// ---- one size ---------------------------------------------------------------------------------

interface Figures {
  n: number;
  index: number;
  plainLoops: number;
  floor: number;
  usearch: number | undefined;
  naive: number;
  /** The fastest and slowest naive query: its speed varies from query to query and run to run. */
  naiveRange: readonly [number, number];
  naiveQueries: number;
  agrees: boolean;
  bytesPerVector: { pages: number; ids: number };
}

function idOf(i: number): string {
  return `src/module${i % 97}/file${Math.floor(i / 7)}.ts#${(i % 7) * 40}`;
}

/** Writes the unit vectors of `index` to a vectors file in `directory`, row i that of `index.ids[i]`, and tells the index; returns the file. */
function saveRows(index: VectorIndex, directory: string): string {
  const file = path.join(directory, 'vectors.f32');
  const row = new Float32Array(dimensions);
  const descriptor = fs.openSync(file, 'w');
  try {
    index.ids.forEach((id, i) => {
      index.readVector(id, row);
      fs.writeSync(descriptor, new Uint8Array(row.buffer), 0, row.byteLength, i * row.byteLength);
    });
  } finally {
    fs.closeSync(descriptor);
  }
  index.rowsSaved(file, index.ids);
  if (index.rowsInMemory !== 0) throw new Error('rows stayed in memory after saving');
  return file;
}

/**
 * Builds an index of the first `n` vectors of `data`, saves its rows to a file in `directory` (as
 * the embedding cache does), measures the memory it took (after gc, by memoryUsage deltas), and
 * times `search` over the queries (median ms).
 */
async function timedIndex(
  data: Float32Array,
  n: number,
  options: { simd?: boolean },
  directory: string,
  search: (index: VectorIndex, q: number) => void,
): Promise<{ ms: number; bytes: { pages: number; ids: number } }> {
  await gc();
  const before = process.memoryUsage();
  const index = new VectorIndex(dimensions, options);
  for (let i = 0; i < n; i++) index.add(idOf(i), data.subarray(i * dimensions, (i + 1) * dimensions));
  saveRows(index, directory);
  await gc();
  const after = process.memoryUsage();
  const bytes = { pages: (after.external - before.external) / n, ids: (after.heapUsed - before.heapUsed) / n };
  const ms = time(options.simd === false ? Math.min(queryCount, 20) : queryCount, WARM_UP, (q) => search(index, q));
  return { ms, bytes };
}

async function measure(n: number): Promise<Figures> {
  const random = seededRandom(n);
  const generator = new Generator(random);
  const data = new Float32Array(n * dimensions);
  for (let i = 0; i < n; i++) generator.next(data, i * dimensions);
  const queries: Float32Array[] = [];
  for (let q = 0; q < queryCount; q++) {
    const query = new Float32Array(dimensions);
    generator.next(query, 0);
    queries.push(query);
  }

  // Each index is built, timed and dropped in turn, so only one is in memory at a time.
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'gigachat-bench-vectors-'));
  const exact: VectorMatch[][] = [];
  let indexMs: number;
  let plainLoopsMs: number;
  let bytesPerVector: { pages: number; ids: number };
  try {
    ({ ms: indexMs, bytes: bytesPerVector } = await timedIndex(data, n, {}, directory, (index, q) => {
      exact[q] = index.search(queries[q], k);
    }));
    ({ ms: plainLoopsMs } = await timedIndex(data, n, { simd: false }, directory, (index, q) => {
      index.search(queries[q], k);
    }));
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
  const floorMs = floor(data, n >= 50_000 ? 10 : 30);
  const usearchMs = usearchExact(data, queries, queryCount);

  // The naive baseline on the same data, as number[][].
  const naiveQueries = Math.min(queryCount, n >= 50_000 ? 5 : 20);
  const vectors: number[][] = [];
  for (let i = 0; i < n; i++) vectors.push(Array.from(data.subarray(i * dimensions, (i + 1) * dimensions)));
  const naiveQueryArrays = queries.slice(0, naiveQueries).map((q) => Array.from(q));
  let agrees = true;
  // Warmed up as much as the index: the naive loop's speed settles only after a few queries.
  const naiveTimes = timings(naiveQueries, WARM_UP, (q) => {
    const results = naiveSearch(vectors, naiveQueryArrays[q], k);
    results.forEach((result, rank) => {
      const match = exact[q][rank];
      if (match.id !== idOf(result.index) && Math.abs(match.score - result.score) > 1e-5) agrees = false;
    });
  });
  const naiveMs = median(naiveTimes);
  const naiveRange = [Math.min(...naiveTimes), Math.max(...naiveTimes)] as const;

  return {
    n,
    index: indexMs,
    plainLoops: plainLoopsMs,
    floor: floorMs,
    usearch: usearchMs,
    naive: naiveMs,
    naiveRange,
    naiveQueries,
    agrees,
    bytesPerVector,
  };
}

// ---- report -----------------------------------------------------------------------------------

const ms = (x: number) => `${x < 10 ? x.toFixed(2) : x.toFixed(1)} ms`;
const times = (x: number) => `${x.toFixed(x < 10 ? 2 : 1)}×`;
const bytes = (x: number) => `${Math.round(x).toLocaleString('en-US')} B`;
const memoryTarget = 0.6 * 4 * dimensions;

const rows: [string, (f: Figures) => string, string][] = [
  ['index search, median', (f) => ms(f.index), ''],
  ['  the same, plain loops (no SIMD)', (f) => ms(f.plainLoops), ''],
  ['floor: native read of the floats (memchr)', (f) => ms(f.floor), ''],
  ['index / floor', (f) => times(f.index / f.floor), '≤ 2×'],
  ['usearch exact search, 2 threads', (f) => (f.usearch === undefined ? 'not installed' : ms(f.usearch)), ''],
  ['index / usearch', (f) => (f.usearch === undefined ? '-' : times(f.index / f.usearch)), ''],
  ['naive, median', (f) => `${ms(f.naive)} (${f.naiveQueries} q)`, ''],
  ['  naive, fastest … slowest query', (f) => `${ms(f.naiveRange[0])} … ${ms(f.naiveRange[1])}`, ''],
  ['speed-up over naive', (f) => times(f.naive / f.index), '≥ 10×'],
  ['top 10 agree with naive', (f) => (f.agrees ? 'yes' : 'NO'), ''],
  ['bytes / vector: pages', (f) => bytes(f.bytesPerVector.pages), ''],
  ['bytes / vector: ids + map', (f) => bytes(f.bytesPerVector.ids), ''],
  ['bytes / vector: total', (f) => bytes(f.bytesPerVector.pages + f.bytesPerVector.ids), `≤ ${bytes(memoryTarget)}`],
];

async function main(): Promise<void> {
  const started = performance.now();
  const results: Figures[] = [];
  for (const n of sizes) {
    results.push(await measure(n));
    await gc();
  }

  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  console.log(
    `Vector index: ${dimensions} dimensions, k = ${k}, ${queryCount} queries after ${WARM_UP} warm-up; Node ${process.version}, ${os.cpus().length} × ${cpu}`,
  );
  console.log(
    'Memory: process.memoryUsage() deltas around building the index and saving its rows to a file, after gc (external: pages, in WebAssembly memories or ArrayBuffers; heapUsed: ids and map).',
  );
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  const columns = results.map((f) => `N = ${f.n.toLocaleString('en-US')}`);
  const cell = 24;
  console.log(`${''.padEnd(width)}${columns.map((c) => c.padEnd(cell)).join('')}target`);
  for (const [label, value, target] of rows) {
    console.log(`${label.padEnd(width)}${results.map((f) => value(f).padEnd(cell)).join('')}${target}`);
  }
  console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s in all)`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
