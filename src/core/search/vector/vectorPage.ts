/**
 * One bfloat16 storage page of {@link VectorIndex} (see vectorPageMemory.ts for what the two kinds
 * of page share): up to `capacity` unit vectors, one after another.
 *
 * Only half of each float32 component is kept here: its 32 bits rounded to the nearest multiple of
 * 2^16, whose high 16 bits are a bfloat16 (8 significant bits, so within 2^-8 of the component's
 * size). A search scans these rounded halves, and computes the exact float score only for the
 * vectors the rounding could have misplaced (see {@link roundingBound}), from their float32 rows
 * read back from where they are kept whole (the cache's vectors file, or memory until it is saved:
 * see vectorRows.ts) into this page's {@link whole}. Memory is half that of the floats. Layout,
 * each part 64-byte aligned:
 *
 *   float query | results (one float per vector) | one whole vector | its result |
 *   rounded halves | the file row of each vector
 *
 * Vectors are `floatStride` values apart (the dimensions rounded up to the SIMD step, zero padded).
 */
import { align, floatSumBound, pageMemory, type PageShape, type StoredPage, WASM_PAGE_BYTES } from './vectorPageMemory';
import { F32_STEP_BYTES, ROUNDED_STEP_BYTES, type SimdKernels } from './vectorSimd';

/** Values per stored vector: `dimensions` rounded up to what the float and rounded kernels take a step. */
export function floatStride(dimensions: number): number {
  const step = Math.max(F32_STEP_BYTES / 4, ROUNDED_STEP_BYTES / 2);
  return Math.ceil(dimensions / step) * step;
}

/**
 * How far the score of unit vectors from their rounded halves can be from their exact float score:
 * each component is within 2^-8 of its size, so the dot product within 2^-8 × Σ|q_i × v_i| ≤ 2^-8
 * (Cauchy–Schwarz, for norms of at most 1: vectorNorm.ts keeps them so); plus, far above it, the
 * float32 rounding of both sums (under 2^-24 per term).
 */
export function roundingBound(dimensions: number): number {
  return 2 ** -8 + floatSumBound(dimensions);
}

/** The rounded half of a float32's bits: the nearest multiple of 2^16, shifted down (no carry reaches the sign: the values are finite). */
export const roundedHalf = (bits: number) => (bits + 0x8000) >>> 16;

/** Where each part of a page of `capacity` vectors starts, in bytes, and where the page ends. */
function layout(stride: number, capacity: number) {
  const query = 0;
  const results = query + align(stride * 4);
  const whole = results + align(capacity * 4);
  const wholeResult = whole + align(stride * 4);
  const rounded = wholeResult + align(4);
  const rows = rounded + align(capacity * stride * 2);
  return { query, results, whole, wholeResult, rounded, rows, end: rows + capacity * 4 };
}

/**
 * The most vectors a page can hold in the WebAssembly pages (64 KiB each) that `wanted` vectors
 * need anyway, so the rounding up of the memory holds vectors instead of nothing.
 */
export function fittedCapacity(dimensions: number, wanted: number): number {
  const stride = floatStride(dimensions);
  const limit = Math.ceil(layout(stride, wanted).end / WASM_PAGE_BYTES) * WASM_PAGE_BYTES;
  let capacity = wanted;
  while (layout(stride, capacity + 1).end <= limit) capacity++;
  return capacity;
}

export class VectorPage implements StoredPage {
  readonly simd: boolean;
  readonly floatStride: number;
  /** The vectors' components rounded to 16 bits (bfloat16), `floatStride` each; the padding stays zero. */
  readonly rounded: Uint16Array;
  readonly rows: Int32Array;
  /** The query the next rounded scan and exact scores compare with (`floatStride` floats, zero padded). */
  readonly query: Float32Array;
  readonly whole: Float32Array;
  readonly byteLength: number;
  readonly dots: Float32Array;
  /** {@link roundingBound} for every vector. */
  readonly bounds: Float32Array;

  private readonly kernels: SimdKernels;
  private readonly wholeResult: Float32Array;
  private readonly at: ReturnType<typeof layout>;

  constructor(shape: PageShape) {
    const { dimensions, capacity } = shape;
    this.floatStride = floatStride(dimensions);
    const at = layout(this.floatStride, capacity);
    this.at = at;
    const { buffer, kernels, simd } = pageMemory(at.end, shape.simd);
    this.kernels = kernels;
    this.simd = simd;
    this.query = new Float32Array(buffer, at.query, this.floatStride);
    this.dots = new Float32Array(buffer, at.results, capacity);
    this.whole = new Float32Array(buffer, at.whole, this.floatStride);
    this.wholeResult = new Float32Array(buffer, at.wholeResult, 1);
    this.rounded = new Uint16Array(buffer, at.rounded, capacity * this.floatStride);
    this.rows = new Int32Array(buffer, at.rows, capacity);
    this.byteLength = buffer.byteLength;
    this.bounds = new Float32Array(capacity).fill(roundingBound(dimensions));
  }

  setQuery(unit: Float32Array): void {
    this.query.set(unit);
  }

  write(index: number, values: Float32Array, row: number): void {
    const bits = new Uint32Array(values.buffer, values.byteOffset, this.floatStride);
    const at = index * this.floatStride;
    for (let i = 0; i < bits.length; i++) this.rounded[at + i] = roundedHalf(bits[i]);
    this.rows[index] = row;
  }

  matches(index: number, values: Float32Array): boolean {
    const bits = new Uint32Array(values.buffer, values.byteOffset, values.length);
    for (let i = 0, at = index * this.floatStride; i < bits.length; i++, at++) if (roundedHalf(bits[i]) !== this.rounded[at]) return false;
    return true;
  }

  readRounded(index: number, target: Float32Array): void {
    const bits = new Uint32Array(target.buffer, target.byteOffset, target.length);
    const n = Math.min(this.floatStride, target.length);
    for (let i = 0, at = index * this.floatStride; i < n; i++, at++) bits[i] = this.rounded[at] << 16;
  }

  copy(source: VectorPage, sourceIndex: number, index: number): void {
    const n = this.floatStride;
    this.rounded.set(source.rounded.subarray(sourceIndex * n, (sourceIndex + 1) * n), index * n);
    this.rows[index] = source.rows[sourceIndex];
  }

  /** The dot products of {@link query} with the rounded halves of the first `count` vectors, each within {@link roundingBound} of the exact one. */
  firstPass(count: number): Float32Array {
    this.kernels.dotsRounded(this.at.query, this.at.rounded, count, this.floatStride * 2, this.at.results);
    return this.dots;
  }

  wholeDot(): number {
    this.kernels.dotsF32(this.at.query, this.at.whole, 1, this.floatStride * 4, this.at.wholeResult);
    return this.wholeResult[0];
  }
}
