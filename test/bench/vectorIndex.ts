/**
 * The vector index's search with its int8 and its bfloat16 first pass against a native read of the
 * same float32 bytes, usearch's exact search and a naive implementation. Prints; asserts nothing
 * (test/unit/core/search/vector/vectorIndex.test.ts, vectorInt8.test.ts and vectorRows.test.ts check correctness).
 *
 * For N = 10,000 and 100,000 (or --sizes) unit vectors of 1,024 dimensions (synthetic, clustered
 * like embeddings: 256 centroids plus noise, a few dimensions with a larger spread), written to a
 * vectors file a chunk at a time as the embedding cache holds them, k = 10, queries drawn the same
 * way, medians after warm-up:
 *   - int8, bf16: VectorIndex.search as the product runs it, each index loaded from the vectors
 *     file as the cache loads it (rounded values in memory, float32 rows read back from the file
 *     for the exact scores), its pages forced int8 or bfloat16; its WebAssembly SIMD kernels (a
 *     scan of every vector's rounded values, then exact float scores for the few that could
 *     rank), and the same with its plain JavaScript loops, as where SIMD is unavailable;
 *   - floor: a native read of every byte of the N × 1,024 floats once: Buffer.indexOf of a byte
 *     they do not hold (memchr, in C), 256 MiB at a time. The first pass reads a quarter (int8)
 *     or half (bf16) of those bytes, so it can go below;
 *   - identical: each search's results against a float32 brute force over the file (the same
 *     kernel as the exact scores, every vector), ids and scores bit for bit;
 *   - usearch: its exact (brute-force) cosine search over the same float32 vectors, 2 threads;
 *   - naive: number[][] and, per pair, the cosine with both norms, then a full sort;
 *   - memory per vector: process.memoryUsage() deltas (external, which counts WebAssembly
 *     memories and ArrayBuffers, for the pages; heapUsed for ids and maps) around loading the
 *     index, after garbage collection.
 * usearch, the naive baseline and the plain loops need every float in memory or minutes: they
 * run up to 100,000 vectors only.
 *
 *   node out/test/bench/vectorIndex.js [--sizes 10000,100000] [--queries 50] [--dimensions 1024]
 *   node out/test/bench/vectorIndex.js --sizes 1000000 --queries 20   (the target; 4 GB of file)
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { VectorIndex, type VectorIndexOptions, type VectorMatch } from '../../src/core/search/vector/vectorIndex';
import { seededRandom } from '../emulator/random';
import { listOption, numberOption } from './options';
import { median } from './stats';
import { bruteForce, floor, forEachChunk, Generator, timings, writeVectors } from './vectorData';

const sizes = listOption('sizes', '10000,100000');
const queryCount = numberOption('queries', 50);
const dimensions = numberOption('dimensions', 1024);
const k = 10;
const WARM_UP = 5;
/** Above this many vectors usearch, the naive baseline and the plain loops are left out. */
const IN_MEMORY_UP_TO = 100_000;
/** Queries the plain loops are timed on (they are slow). */
const PLAIN_QUERIES = 20;

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

/** Median ms of `run(i)` for i = 0 … runs-1, after `warmUp` untimed calls. */
function time(runs: number, warmUp: number, run: (i: number) => void): number {
  return median(timings(runs, warmUp, run));
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

interface Naive {
  ms: number;
  /** The fastest and slowest query: its speed varies from query to query and run to run. */
  range: readonly [number, number];
  queries: number;
  agrees: boolean;
}

/** The naive baseline on the vectors of `file`, as number[][]; agreeing with `exact` up to rounding (it works in doubles). */
function naive(file: string, n: number, queries: Float32Array[], exact: VectorMatch[][]): Naive {
  const vectors: number[][] = [];
  forEachChunk(file, n, dimensions, (chunk, _, rows) => {
    for (let j = 0; j < rows; j++) vectors.push(Array.from(chunk.subarray(j * dimensions, (j + 1) * dimensions)));
  });
  const count = Math.min(queries.length, n >= 50_000 ? 5 : 20);
  const arrays = queries.slice(0, count).map((q) => Array.from(q));
  let agrees = true;
  // Warmed up as much as the index: the naive loop's speed settles only after a few queries.
  const taken = timings(count, WARM_UP, (q) => {
    naiveSearch(vectors, arrays[q], k).forEach((result, rank) => {
      const match = exact[q][rank];
      if (match.id !== idOf(result.index) && Math.abs(match.score - result.score) > 1e-5) agrees = false;
    });
  });
  return { ms: median(taken), range: [Math.min(...taken), Math.max(...taken)], queries: count, agrees };
}

// ---- the index ----------------------------------------------------------------------------------

interface Variant {
  /** Median ms of a search. */
  ms: number;
  /** Median vectors scored exactly per search. */
  exactScores: number;
  /** Whether every search gave the float32 brute force's results, bit for bit. */
  identical: boolean;
  bytesPerVector: { pages: number; ids: number };
  /** Seconds to load the index from the vectors file. */
  loadSeconds: number;
}

function idOf(i: number): string {
  return `src/module${i % 97}/file${Math.floor(i / 7)}.ts#${(i % 7) * 40}`;
}

/**
 * Loads an index of the `n` rows of `file` (as the embedding cache does), measures the memory it
 * took (after gc, by memoryUsage deltas), times its searches (median ms) and checks their results.
 */
async function timedIndex(file: string, n: number, options: VectorIndexOptions, queries: Float32Array[], exact: VectorMatch[][]): Promise<Variant> {
  await gc();
  const before = process.memoryUsage();
  const started = performance.now();
  const index = new VectorIndex(dimensions, options);
  forEachChunk(file, n, dimensions, (chunk, first, rows) => {
    for (let j = 0; j < rows; j++) index.addFromFile(idOf(first + j), chunk.subarray(j * dimensions, (j + 1) * dimensions), file, first + j);
  });
  const loadSeconds = (performance.now() - started) / 1000;
  await gc();
  const after = process.memoryUsage();
  const bytesPerVector = { pages: (after.external - before.external) / n, ids: (after.heapUsed - before.heapUsed) / n };
  const runs = queries.length;
  const results: VectorMatch[][] = [];
  const exactScores: number[] = [];
  const ms = time(runs, WARM_UP, (q) => {
    results[q] = index.search(queries[q], k);
    exactScores[q] = index.lastExactScores;
  });
  const identical = results.every((matches, q) => isDeepStrictEqual(matches, exact[q]));
  return { ms, exactScores: median(exactScores), identical, bytesPerVector, loadSeconds };
}

// ---- one size ---------------------------------------------------------------------------------

interface Figures {
  n: number;
  int8: Variant;
  bf16: Variant;
  plain?: { int8: Variant; bf16: Variant };
  floor: number;
  usearch: number | undefined;
  naive?: Naive;
}

async function measure(n: number): Promise<Figures> {
  const generator = new Generator(seededRandom(n), dimensions);
  const queries: Float32Array[] = [];
  for (let q = 0; q < queryCount; q++) {
    const query = new Float32Array(dimensions);
    generator.next(query, 0);
    queries.push(query);
  }
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'gigachat-bench-vectors-'));
  try {
    const file = path.join(directory, 'vectors.f32');
    writeVectors(file, n, dimensions, generator);
    const exact = bruteForce(file, n, dimensions, queries, k, idOf);
    // Each index is loaded, timed and dropped in turn, so only one is in memory at a time.
    const int8 = await timedIndex(file, n, { int8From: 0 }, queries, exact);
    const bf16 = await timedIndex(file, n, { int8From: Infinity }, queries, exact);
    const small = n <= IN_MEMORY_UP_TO;
    let plain: Figures['plain'];
    if (small) {
      // The plain loops sum in another order: their own brute force, over the queries they run.
      const plainQueries = queries.slice(0, PLAIN_QUERIES);
      const plainExact = bruteForce(file, n, dimensions, plainQueries, k, idOf, false);
      plain = {
        int8: await timedIndex(file, n, { int8From: 0, simd: false }, plainQueries, plainExact),
        bf16: await timedIndex(file, n, { int8From: Infinity, simd: false }, plainQueries, plainExact),
      };
    }
    const floorMs = floor(file, n >= 50_000 ? 10 : 30);
    let usearchMs: number | undefined;
    if (small) {
      const data = new Float32Array(n * dimensions);
      forEachChunk(file, n, dimensions, (chunk, first, rows) => data.set(chunk.subarray(0, rows * dimensions), first * dimensions));
      usearchMs = usearchExact(data, queries, queryCount);
    }
    return { n, int8, bf16, plain, floor: floorMs, usearch: usearchMs, naive: small ? naive(file, n, queries, exact) : undefined };
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

// ---- report -----------------------------------------------------------------------------------

const ms = (x: number) => `${x < 10 ? x.toFixed(2) : x.toFixed(1)} ms`;
const times = (x: number) => `${x.toFixed(x < 10 ? 2 : 1)}×`;
const bytes = (x: number) => `${Math.round(x).toLocaleString('en-US')} B`;
const floatBytes = 4 * dimensions;
const total = (v: Variant) => v.bytesPerVector.pages + v.bytesPerVector.ids;
const pair = (f: Figures, show: (v: Variant) => string) => `${show(f.int8)} / ${show(f.bf16)}`;

const rows: [string, (f: Figures) => string, string][] = [
  ['search, median: int8 / bf16', (f) => pair(f, (v) => ms(v.ms)), ''],
  ['floor: native read of the floats (memchr)', (f) => ms(f.floor), ''],
  ['int8 / floor', (f) => times(f.int8.ms / f.floor), '≤ 0.35×'],
  ['bf16 / floor', (f) => times(f.bf16.ms / f.floor), '≤ 2×'],
  ['vectors scored exactly, median: int8 / bf16', (f) => pair(f, (v) => String(v.exactScores)), ''],
  ['top 10 identical to float32: int8 / bf16', (f) => pair(f, (v) => (v.identical ? 'yes' : 'NO')), 'yes'],
  ['memory / vector, int8: pages + ids', (f) => `${bytes(f.int8.bytesPerVector.pages)} + ${bytes(f.int8.bytesPerVector.ids)}`, ''],
  ['memory / vector: int8 / bf16', (f) => pair(f, (v) => bytes(total(v))), ''],
  ['memory / floats: int8 / bf16', (f) => pair(f, (v) => times(total(v) / floatBytes)), 'int8 ≤ 0.35×, bf16 ≤ 0.6×'],
  ['loading from the vectors file: int8 / bf16', (f) => pair(f, (v) => `${v.loadSeconds.toFixed(1)} s`), ''],
  ['plain loops (no SIMD): int8 / bf16', (f) => (f.plain ? `${ms(f.plain.int8.ms)} / ${ms(f.plain.bf16.ms)}` : '-'), ''],
  ['  identical to float32', (f) => (f.plain ? (f.plain.int8.identical && f.plain.bf16.identical ? 'yes' : 'NO') : '-'), ''],
  ['usearch exact search, 2 threads', (f) => (f.usearch === undefined ? (f.n <= IN_MEMORY_UP_TO ? 'not installed' : '-') : ms(f.usearch)), ''],
  ['int8 / usearch', (f) => (f.usearch === undefined ? '-' : times(f.int8.ms / f.usearch)), ''],
  ['naive, median', (f) => (f.naive ? `${ms(f.naive.ms)} (${f.naive.queries} q)` : '-'), ''],
  ['  naive, fastest … slowest query', (f) => (f.naive ? `${ms(f.naive.range[0])} … ${ms(f.naive.range[1])}` : '-'), ''],
  ['speed-up of int8 over naive', (f) => (f.naive ? times(f.naive.ms / f.int8.ms) : '-'), '≥ 10×'],
  ['top 10 agree with naive', (f) => (f.naive ? (f.naive.agrees ? 'yes' : 'NO') : '-'), ''],
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
    'Memory: process.memoryUsage() deltas around loading the index from its vectors file, after gc (external: pages, in WebAssembly memories or ArrayBuffers; heapUsed: ids and map).',
  );
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  const columns = results.map((f) => `N = ${f.n.toLocaleString('en-US')}`);
  const cell = 26;
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
