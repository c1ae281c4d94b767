/**
 * The vector index's search cost against a memory-bandwidth floor and a naive implementation.
 * Prints; asserts nothing (test/unit/vectorIndex.test.ts checks correctness).
 *
 * For N = 10,000 and 100,000 vectors of 1,024 dimensions (synthetic, clustered like embeddings:
 * 256 centroids plus noise, a few dimensions with a larger spread), k = 10, queries drawn the
 * same way, medians after warm-up:
 *   - index: VectorIndex.search (its WebAssembly SIMD kernels: a scan of every vector's rounded
 *     halves, then exact float scores for the few that could rank), and the same with its plain
 *     JavaScript loops, as where SIMD is unavailable (slower: each rounded value is looked up);
 *   - floor: reading every float of one Float32Array of N × 1,024 floats once and summing them,
 *     with the fastest of three plain loops (1-, 4- and 8-way) — the least a JavaScript scan of
 *     the floats must pay (the index's first pass reads half of those bytes, so it can go below);
 *   - naive: number[][] and, per pair, the cosine with both norms, then a full sort;
 *   - memory per vector: process.memoryUsage() deltas (external, which counts WebAssembly
 *     memories and ArrayBuffers, for the pages; heapUsed for ids and maps) around building the
 *     index, after garbage collection.
 *
 *   node out/test/bench/vectorIndex.js [--sizes 10000,100000] [--queries 50] [--dimensions 1024]
 */
import * as os from 'node:os';
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

// ---- floor: the fastest plain read of every float -----------------------------------------------

function sum1(a: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i];
  return s;
}

function sum4(a: Float32Array): number {
  const n = a.length - (a.length % 4);
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i < n; i += 4) {
    s0 += a[i];
    s1 += a[i + 1];
    s2 += a[i + 2];
    s3 += a[i + 3];
  }
  for (; i < a.length; i++) s0 += a[i];
  return s0 + s1 + s2 + s3;
}

function sum8(a: Float32Array): number {
  const n = a.length - (a.length % 8);
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let s4 = 0;
  let s5 = 0;
  let s6 = 0;
  let s7 = 0;
  let i = 0;
  for (; i < n; i += 8) {
    s0 += a[i];
    s1 += a[i + 1];
    s2 += a[i + 2];
    s3 += a[i + 3];
    s4 += a[i + 4];
    s5 += a[i + 5];
    s6 += a[i + 6];
    s7 += a[i + 7];
  }
  for (; i < a.length; i++) s0 += a[i];
  return s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7;
}

let sink = 0;

function floor(data: Float32Array, runs: number): { ms: number; loop: string } {
  const loops: [string, (a: Float32Array) => number][] = [
    ['1-way', sum1],
    ['4-way', sum4],
    ['8-way', sum8],
  ];
  let best = { ms: Infinity, loop: '' };
  for (const [loop, sum] of loops) {
    const ms = time(runs, 3, () => {
      sink += sum(data);
    });
    if (ms < best.ms) best = { ms, loop };
  }
  return best;
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
  floor: { ms: number; loop: string };
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

/**
 * Builds an index of the first `n` vectors of `data`, measures the memory it took (after gc, by
 * memoryUsage deltas), and times `search` over the queries (median ms).
 */
async function timedIndex(
  data: Float32Array,
  n: number,
  options: { simd?: boolean },
  search: (index: VectorIndex, q: number) => void,
): Promise<{ ms: number; bytes: { pages: number; ids: number } }> {
  await gc();
  const before = process.memoryUsage();
  const index = new VectorIndex(dimensions, options);
  for (let i = 0; i < n; i++) index.add(idOf(i), data.subarray(i * dimensions, (i + 1) * dimensions));
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
  const exact: VectorMatch[][] = [];
  const { ms: indexMs, bytes: bytesPerVector } = await timedIndex(data, n, {}, (index, q) => {
    exact[q] = index.search(queries[q], k);
  });
  const floorMs = floor(data, n >= 50_000 ? 10 : 30);
  const { ms: plainLoopsMs } = await timedIndex(data, n, { simd: false }, (index, q) => {
    index.search(queries[q], k);
  });

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
const memoryTarget = 1.25 * 4 * dimensions;

const rows: [string, (f: Figures) => string, string][] = [
  ['index search, median', (f) => ms(f.index), ''],
  ['  the same, plain loops (no SIMD)', (f) => ms(f.plainLoops), ''],
  ['floor: read all floats, median', (f) => `${ms(f.floor.ms)} (${f.floor.loop})`, ''],
  ['index / floor', (f) => times(f.index / f.floor.ms), '≤ 2×'],
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
    'Memory: process.memoryUsage() deltas around building the index, after gc (external: pages, in WebAssembly memories or ArrayBuffers; heapUsed: ids and map).',
  );
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  const columns = results.map((f) => `N = ${f.n.toLocaleString('en-US')}`);
  const cell = 24;
  console.log(`${''.padEnd(width)}${columns.map((c) => c.padEnd(cell)).join('')}target`);
  for (const [label, value, target] of rows) {
    console.log(`${label.padEnd(width)}${results.map((f) => value(f).padEnd(cell)).join('')}${target}`);
  }
  console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s in all; checksum ${sink.toFixed(0)})`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
