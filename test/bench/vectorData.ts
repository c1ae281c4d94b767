/**
 * Data and references for test/bench/vectorIndex.ts, streamed through a vectors file so that a
 * million vectors of 1,024 dimensions (4 GB of floats) never have to be in memory at once:
 * embedding-like unit vectors written to the file, read back in chunks, a float32 brute force over
 * them, and the floor, a native read of the file's bytes.
 */
import * as fs from 'node:fs';
import type { VectorMatch } from '../../src/core/search/vector/vectorIndex';
import { checkedNorm } from '../../src/core/search/vector/vectorNorm';
import { plainKernels } from '../../src/core/search/vector/vectorKernels';
import { instantiateKernels, simdModule } from '../../src/core/search/vector/vectorSimd';
import type { Random } from '../emulator/random';
import { median } from './stats';

/** Rows read or written at a time: 16 MiB of floats at 1,024 dimensions. */
const CHUNK_ROWS = 4096;

/** Median ms of `run(i)` for i = 0 … runs-1, after `warmUp` untimed calls; also each run's ms. */
export function timings(runs: number, warmUp: number, run: (i: number) => void): number[] {
  for (let i = 0; i < warmUp; i++) run(i % runs);
  const taken: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    run(i);
    taken.push(performance.now() - started);
  }
  return taken;
}

/** Embedding-like vectors: a centroid (of 256) plus as much noise, a few wide dimensions; normalised as the index normalises them. */
export class Generator {
  private readonly centroids: Float32Array[] = [];
  private readonly spread: Float32Array;

  constructor(
    private readonly random: Random,
    private readonly dimensions: number,
  ) {
    this.spread = new Float32Array(dimensions);
    for (let i = 0; i < dimensions; i++) this.spread[i] = 1 + 4 * random() ** 12;
    for (let c = 0; c < 256; c++) {
      const centroid = new Float32Array(dimensions);
      for (let i = 0; i < dimensions; i++) centroid[i] = (random() * 2 - 1) * Math.sqrt(3 / dimensions);
      this.centroids.push(centroid);
    }
  }

  /** Writes one unit vector into `target` at `at`. */
  next(target: Float32Array, at: number): void {
    const d = this.dimensions;
    const random = this.random;
    const centroid = this.centroids[Math.floor(random() * this.centroids.length)];
    const noise = 0.9 * Math.sqrt(3 / d);
    for (let i = 0; i < d; i++) target[at + i] = (centroid[i] + (random() * 2 - 1) * noise) * this.spread[i];
    const vector = target.subarray(at, at + d);
    const norm = checkedNorm(vector, d, 'vector');
    for (let i = 0; i < d; i++) vector[i] = vector[i] / norm;
  }
}

/** Writes `n` unit vectors of `generator` to `file`, one float32 row each, a chunk at a time. */
export function writeVectors(file: string, n: number, dimensions: number, generator: Generator): void {
  const chunk = new Float32Array(CHUNK_ROWS * dimensions);
  const descriptor = fs.openSync(file, 'w');
  try {
    for (let first = 0; first < n; first += CHUNK_ROWS) {
      const rows = Math.min(CHUNK_ROWS, n - first);
      for (let j = 0; j < rows; j++) generator.next(chunk, j * dimensions);
      fs.writeSync(descriptor, new Uint8Array(chunk.buffer, 0, rows * dimensions * 4));
    }
  } finally {
    fs.closeSync(descriptor);
  }
}

/** Reads all of `target.byteLength` bytes of `descriptor` from `position`. */
function readFully(descriptor: number, target: Uint8Array, position: number): void {
  for (let done = 0; done < target.byteLength;) {
    const read = fs.readSync(descriptor, target, done, target.byteLength - done, position + done);
    if (read === 0) throw new Error('the vectors file ended early');
    done += read;
  }
}

/** Calls `each` with the rows of `file` a chunk at a time: `rows` of them, the first being row `first`. */
export function forEachChunk(file: string, n: number, dimensions: number, each: (chunk: Float32Array, first: number, rows: number) => void): void {
  const chunk = new Float32Array(CHUNK_ROWS * dimensions);
  const descriptor = fs.openSync(file, 'r');
  try {
    for (let first = 0; first < n; first += CHUNK_ROWS) {
      const rows = Math.min(CHUNK_ROWS, n - first);
      readFully(descriptor, new Uint8Array(chunk.buffer, 0, rows * dimensions * 4), first * dimensions * 4);
      each(chunk, first, rows);
    }
  } finally {
    fs.closeSync(descriptor);
  }
}

/** The query as the index compares with it: divided by its norm in doubles, rounded to float32. */
function unitQuery(query: Float32Array): Float32Array {
  const norm = checkedNorm(query, query.length, 'query');
  return query.map((x) => x / norm);
}

const byScoreThenId = (a: VectorMatch, b: VectorMatch) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Float32 brute force: every row of `file` scored against each query by the index's float32
 * kernel, SIMD or plain (each sums a vector in one fixed order, wherever it is stored: the index's
 * exact scores, bit for bit), clamped to [-1, 1], the best `k` by score, then id.
 */
export function bruteForce(
  file: string,
  n: number,
  dimensions: number,
  queries: Float32Array[],
  k: number,
  idOf: (row: number) => string,
  simd = true,
): VectorMatch[][] {
  const module = simdModule();
  if (!module && simd) throw new Error('the float32 brute force needs WebAssembly SIMD');
  const stride = Math.ceil(dimensions / 16) * 16;
  // Rows go through the kernel a block at a time, against every query, while the block is in cache.
  const block = Math.max(1, Math.floor(2 ** 20 / (stride * 4)));
  const outAt = queries.length * stride * 4;
  const rowsAt = outAt + block * 4;
  const memory = new WebAssembly.Memory({ initial: Math.ceil((rowsAt + block * stride * 4) / 65536) });
  const kernels = module && simd ? instantiateKernels(module, memory) : plainKernels(memory.buffer);
  const floats = new Float32Array(memory.buffer);
  queries.forEach((query, q) => floats.set(unitQuery(query), q * stride));
  const out = new Float32Array(memory.buffer, outAt, block);
  // Per query: every row scoring at least the k-th best so far (pruned to k now and then), by row.
  const kept = queries.map(() => ({ scores: [] as number[], rows: [] as number[], threshold: -Infinity }));
  const prune = (q: number) => {
    const { scores, rows } = kept[q];
    const best = rows
      .map((row, i) => ({ id: idOf(row), score: scores[i], row }))
      .sort(byScoreThenId)
      .slice(0, k);
    kept[q] = { scores: best.map((m) => m.score), rows: best.map((m) => m.row), threshold: best.length === k ? best[k - 1].score : -Infinity };
  };
  forEachChunk(file, n, dimensions, (chunk, chunkFirst, chunkRows) => {
    for (let start = 0; start < chunkRows; start += block) {
      const rows = Math.min(block, chunkRows - start);
      for (let j = 0; j < rows; j++) floats.set(chunk.subarray((start + j) * dimensions, (start + j + 1) * dimensions), rowsAt / 4 + j * stride);
      for (let q = 0; q < queries.length; q++) {
        kernels.dotsF32(q * stride * 4, rowsAt, rows, stride * 4, outAt);
        const best = kept[q];
        for (let j = 0; j < rows; j++) {
          const score = Math.max(-1, Math.min(1, out[j]));
          if (score < best.threshold) continue;
          best.scores.push(score);
          best.rows.push(chunkFirst + start + j);
        }
        if (best.rows.length > 64 * k) prune(q);
      }
    }
  });
  return queries.map((_, q) => {
    prune(q);
    return kept[q].rows.map((row, i) => ({ id: idOf(row), score: kept[q].scores[i] }));
  });
}

/**
 * Median ms of a native scan of every byte of `file` (memchr, through Buffer.indexOf) for a byte
 * it does not hold, 256 MiB at a time (each piece read into memory first, untimed, with that byte
 * changed, so the scan reads it all), the pieces' medians added up.
 */
export function floor(file: string, runs: number): number {
  const absent = 0x7b;
  const size = fs.statSync(file).size;
  const piece = Buffer.allocUnsafe(Math.min(size, 256 * 2 ** 20));
  const descriptor = fs.openSync(file, 'r');
  let total = 0;
  try {
    for (let at = 0; at < size; at += piece.length) {
      const bytes = piece.subarray(0, Math.min(piece.length, size - at));
      readFully(descriptor, bytes, at);
      for (let i = 0; i < bytes.length; i++) if (bytes[i] === absent) bytes[i] = absent + 1;
      total += median(
        timings(runs, 3, () => {
          if (bytes.indexOf(absent) !== -1) throw new Error('the floor found the byte it should not');
        }),
      );
    }
  } finally {
    fs.closeSync(descriptor);
  }
  return total;
}
