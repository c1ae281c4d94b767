/**
 * One storage page of {@link VectorIndex}: up to `capacity` unit vectors, one after another, in a
 * memory of the page's own that the kernels scan in place.
 *
 * Each float32 component is kept whole, but in two halves stored apart: its 32 bits rounded to the
 * nearest multiple of 2^16, whose high 16 bits are a bfloat16 (8 significant bits, so within 2^-8
 * of the component's size), and the signed remainder that gives back the exact bits. A search
 * scans only the rounded halves, half the bytes of the floats, and computes the exact float score
 * only for the vectors the rounding could have misplaced (see {@link roundingBound}). Memory is the
 * same as the floats alone.
 *
 * With WebAssembly SIMD the memory is a WebAssembly.Memory with its own instance of the kernels
 * (a module can import only one memory, and a page per memory lets pages be freed one by one,
 * which a growing shared memory could not); otherwise it is an ArrayBuffer scanned by the plain
 * loops. Layout, each part 64-byte aligned except the remainders (never loaded by SIMD):
 *
 *   float query | results (one float per vector) | one vector put back together | its result |
 *   rounded halves | remainders
 *
 * Vectors are `floatStride` values apart in both halves (the dimensions rounded up to the SIMD
 * step, zero padded).
 */
import { plainKernels } from './vectorKernels';
import { F32_STEP_BYTES, instantiateKernels, ROUNDED_STEP_BYTES, type SimdKernels, simdModule } from './vectorSimd';

const ALIGN = 64;
const WASM_PAGE_BYTES = 65536;

const align = (bytes: number) => Math.ceil(bytes / ALIGN) * ALIGN;

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
  return 2 ** -8 + (dimensions + 64) * 2 ** -22;
}

export interface PageShape {
  dimensions: number;
  /** Vectors the page holds. */
  capacity: number;
  /** `simd: false` forces the plain loops (tests compare the two). */
  simd?: boolean;
}

export class VectorPage {
  /** Whether the SIMD kernels scan this page (false: the plain loops). */
  readonly simd: boolean;
  readonly floatStride: number;
  /** The vectors' components rounded to 16 bits (bfloat16), `floatStride` each; the padding stays zero. */
  readonly rounded: Uint16Array;
  /** What each component's float32 bits add to its rounded value × 2^16 (in −2^15 … 2^15 − 1). */
  readonly remainders: Int16Array;
  /** The query the next rounded scan and exact scores compare with (`floatStride` floats, zero padded). */
  readonly query: Float32Array;
  /** Bytes this page holds. */
  readonly byteLength: number;

  /** The results of this page's last {@link roundedDots} (what it returned). */
  readonly dots: Float32Array;

  private readonly kernels: SimdKernels;
  /** One vector's float32 bits, put back together from its halves for an exact score. */
  private readonly wholeBits: Uint32Array;
  private readonly wholeResult: Float32Array;
  private readonly at: { query: number; results: number; whole: number; wholeResult: number; rounded: number };

  constructor(shape: PageShape) {
    const { dimensions, capacity } = shape;
    this.floatStride = floatStride(dimensions);
    const query = 0;
    const results = query + align(this.floatStride * 4);
    const whole = results + align(capacity * 4);
    const wholeResult = whole + align(this.floatStride * 4);
    const rounded = wholeResult + ALIGN;
    const remainders = rounded + capacity * this.floatStride * 2;
    const end = remainders + capacity * this.floatStride * 2;
    this.at = { query, results, whole, wholeResult, rounded };

    const module = shape.simd === false ? null : simdModule();
    let buffer: ArrayBuffer;
    if (module) {
      const memory = new WebAssembly.Memory({ initial: Math.ceil(end / WASM_PAGE_BYTES) });
      this.kernels = instantiateKernels(module, memory);
      buffer = memory.buffer;
    } else {
      buffer = new ArrayBuffer(end);
      this.kernels = plainKernels(buffer);
    }
    this.simd = module !== null;
    this.query = new Float32Array(buffer, query, this.floatStride);
    this.dots = new Float32Array(buffer, results, capacity);
    this.wholeBits = new Uint32Array(buffer, whole, this.floatStride);
    this.wholeResult = new Float32Array(buffer, wholeResult, 1);
    this.rounded = new Uint16Array(buffer, rounded, capacity * this.floatStride);
    this.remainders = new Int16Array(buffer, remainders, capacity * this.floatStride);
    this.byteLength = buffer.byteLength;
  }

  /** Stores the float32 `values` (`floatStride` of them, zero padded) as vector `index`. */
  write(index: number, values: Float32Array): void {
    const bits = new Uint32Array(values.buffer, values.byteOffset, this.floatStride);
    const at = index * this.floatStride;
    for (let i = 0; i < bits.length; i++) {
      // Round to the nearest multiple of 2^16 (no carry can reach the sign: the values are finite).
      const high = (bits[i] + 0x8000) >>> 16;
      this.rounded[at + i] = high;
      this.remainders[at + i] = bits[i] - high * 0x10000;
    }
  }

  /** Writes vector `index`, its float32 bits put back together, to `target` (`floatStride` floats, or at least `dimensions`). */
  read(index: number, target: Float32Array): void {
    const bits = new Uint32Array(target.buffer, target.byteOffset, target.length);
    const n = Math.min(this.floatStride, target.length);
    for (let i = 0, at = index * this.floatStride; i < n; i++, at++) bits[i] = (this.rounded[at] << 16) + this.remainders[at];
  }

  /** Copies vector `sourceIndex` of `source` (a page of the same shape) to vector `index` of this one. */
  copy(source: VectorPage, sourceIndex: number, index: number): void {
    const n = this.floatStride;
    this.rounded.set(source.rounded.subarray(sourceIndex * n, (sourceIndex + 1) * n), index * n);
    this.remainders.set(source.remainders.subarray(sourceIndex * n, (sourceIndex + 1) * n), index * n);
  }

  /**
   * The dot products of {@link query} with the rounded halves of the first `count` vectors, each
   * within {@link roundingBound} of the exact one. Kept until this page's next `roundedDots`
   * ({@link exactDot} leaves them).
   */
  roundedDots(count: number): Float32Array {
    this.kernels.dotsRounded(this.at.query, this.at.rounded, count, this.floatStride * 2, this.at.results);
    return this.dots;
  }

  /**
   * The float32 dot product of {@link query} with vector `index`, its bits put back together:
   * always the same number for the same vector and query, wherever the vector is stored.
   */
  exactDot(index: number): number {
    const { floatStride: n, wholeBits: bits, rounded, remainders } = this;
    for (let i = 0, at = index * n; i < n; i++, at++) bits[i] = (rounded[at] << 16) + remainders[at];
    this.kernels.dotsF32(this.at.query, this.at.whole, 1, n * 4, this.at.wholeResult);
    return this.wholeResult[0];
  }
}
