/**
 * What the two kinds of storage page of {@link VectorIndex} share: bfloat16 pages (vectorPage.ts)
 * and int8 pages (vectorPageInt8.ts) both keep up to `capacity` vectors' rounded values in a
 * memory of the page's own that the kernels scan in place, each vector's row in the vectors file,
 * and the scratch of a search: its query, each vector's first-pass score and bound, and one whole
 * float32 vector for an exact score.
 *
 * With WebAssembly SIMD the memory is a WebAssembly.Memory with its own instance of the kernels
 * (a module can import only one memory, and a page per memory lets pages be freed one by one,
 * which a growing shared memory could not); otherwise it is an ArrayBuffer scanned by the plain
 * loops.
 */
import { plainKernels } from './vectorKernels';
import { instantiateKernels, type SimdKernels, simdModule } from './vectorSimd';

const ALIGN = 64;
export const WASM_PAGE_BYTES = 65536;

/** `bytes` rounded up to the alignment of each part of a page. */
export const align = (bytes: number) => Math.ceil(bytes / ALIGN) * ALIGN;

/** What `rows` holds for a vector whose float32 row is in memory, not (yet) in the file. */
export const IN_MEMORY = -1;

/**
 * How far the float32 kernels' dot product of two vectors of norm at most 1 (+2^-20) can be from
 * the exact one, far above it: each term goes through at most d/16 + 5 float32 roundings of at
 * most 2^-24 of the sum of |products| (≤ 1 by Cauchy–Schwarz).
 */
export function floatSumBound(dimensions: number): number {
  return (dimensions + 64) * 2 ** -22;
}

export interface PageShape {
  dimensions: number;
  /** Vectors the page holds. */
  capacity: number;
  /** `simd: false` forces the plain loops (tests compare the two). */
  simd?: boolean;
}

/** A page of either kind, as the index scans and edits it. */
export interface StoredPage {
  /** Whether the SIMD kernels scan this page (false: the plain loops). */
  readonly simd: boolean;
  /** Each vector's row in the vectors file, or {@link IN_MEMORY}. */
  readonly rows: Int32Array;
  /** Where an exact score takes its vector's float32 components from (the padding stays zero). */
  readonly whole: Float32Array;
  /** Each vector's first-pass score, from {@link firstPass}. */
  readonly dots: Float32Array;
  /** How far each vector's exact score can be from its first-pass score, from {@link firstPass}. */
  readonly bounds: Float32Array;
  /** Bytes this page holds. */
  readonly byteLength: number;
  /** Makes `unit` (`dimensions` floats) the query of the next first pass and exact scores. */
  setQuery(unit: Float32Array): void;
  /** Stores the rounded values of the float32 `values` (zero padded) as vector `index`, whose row is `row`. */
  write(index: number, values: Float32Array, row: number): void;
  /** Whether `values` (its first `dimensions`) round to vector `index`'s values: the check that a row read back is this vector's. */
  matches(index: number, values: Float32Array): boolean;
  /** Writes vector `index`'s rounded values, as floats, to `target` (at least `dimensions` floats): the closest this page can give alone. */
  readRounded(index: number, target: Float32Array): void;
  /** Copies vector `sourceIndex` of `source` (a page of the same kind and shape) to vector `index` of this one. */
  copy(source: this, sourceIndex: number, index: number): void;
  /**
   * Each of the first `count` vectors' first-pass score, in {@link dots}, and its bound, in
   * {@link bounds}: the exact score is within bound of the first-pass score. Kept until the page's
   * next first pass ({@link wholeDot} leaves them).
   */
  firstPass(count: number): Float32Array;
  /**
   * The float32 dot product of the query with {@link whole}: always the same number for the same
   * vector and query, wherever the vector is stored and whichever the kind of page.
   */
  wholeDot(): number;
}

/** A page's memory of `bytes`, and the kernels that work on it: SIMD unless unavailable or `simd` is false. */
export function pageMemory(bytes: number, simd: boolean | undefined): { buffer: ArrayBuffer; kernels: SimdKernels; simd: boolean } {
  const module = simd === false ? null : simdModule();
  if (!module) {
    const buffer = new ArrayBuffer(bytes);
    return { buffer, kernels: plainKernels(buffer), simd: false };
  }
  const memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / WASM_PAGE_BYTES) });
  return { buffer: memory.buffer, kernels: instantiateKernels(module, memory), simd: true };
}
