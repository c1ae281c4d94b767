/**
 * One int8 storage page of {@link VectorIndex} (see vectorPageMemory.ts for what the two kinds of
 * page share): up to `capacity` unit vectors, each as int8 codes times a float32 scale of its own,
 * with the norm of what the codes leave out (see vectorInt8.ts, which proves the first pass's
 * bound). A quarter of the floats' bytes, half of a bfloat16 page's; the bound is wider (about
 * twice), so a search scores a few more vectors exactly. Layout, each part 64-byte aligned:
 *
 *   float query | int16 query codes | results (an int32 sum, then the score, per vector) | bounds |
 *   one whole vector | its result | codes | the file row, scale and residual of each vector
 *
 * Vectors are `stride` values apart (the dimensions rounded up to the int8 kernel's step, zero padded).
 */
import { type QueryCodes, quantizeRow } from './vectorInt8';
import { align, pageMemory, type PageShape, type StoredPage } from './vectorPageMemory';
import { INT8_STEP_BYTES, type SimdKernels } from './vectorSimd';

/** Values per stored vector: `dimensions` rounded up to the int8 kernel's step. */
export function int8Stride(dimensions: number): number {
  return Math.ceil(dimensions / INT8_STEP_BYTES) * INT8_STEP_BYTES;
}

/** Where each part of a page of `capacity` vectors starts, in bytes, and where the page ends. */
function layout(stride: number, capacity: number) {
  const query = 0;
  const queryCodes = query + align(stride * 4);
  const results = queryCodes + align(stride * 2);
  const bounds = results + align(capacity * 4);
  const whole = bounds + align(capacity * 4);
  const wholeResult = whole + align(stride * 4);
  const codes = wholeResult + align(4);
  const rows = codes + align(capacity * stride);
  const scales = rows + align(capacity * 4);
  const residuals = scales + align(capacity * 4);
  return { query, queryCodes, results, bounds, whole, wholeResult, codes, rows, scales, residuals, end: residuals + capacity * 4 };
}

export class Int8Page implements StoredPage {
  readonly simd: boolean;
  readonly stride: number;
  /** The vectors' int8 codes, `stride` each; the padding stays zero. */
  readonly codes: Int8Array;
  /** Each vector's scale: its values are about its codes times it. */
  readonly scales: Float32Array;
  /** Each vector's residual: at least the norm of its values minus its codes times its scale. */
  readonly residuals: Float32Array;
  readonly rows: Int32Array;
  /** The query exact scores compare with (`stride` floats, zero padded). */
  readonly query: Float32Array;
  readonly whole: Float32Array;
  readonly dots: Float32Array;
  readonly bounds: Float32Array;
  readonly byteLength: number;

  private readonly kernels: SimdKernels;
  private readonly queryCodes: Int16Array;
  /** The kernel's integer sums, where {@link dots} then takes their scores. */
  private readonly sums: Int32Array;
  private readonly wholeResult: Float32Array;
  /** The codes of a row read back, to check it is this vector's. */
  private readonly scratch: Int8Array;
  private readonly at: ReturnType<typeof layout>;

  /** @param query16 the codes of the running search's query, shared by the index's pages and loaded before their {@link setQuery}. */
  constructor(
    private readonly shape: PageShape,
    private readonly query16: QueryCodes,
  ) {
    const { dimensions, capacity } = shape;
    this.stride = int8Stride(dimensions);
    const at = layout(this.stride, capacity);
    this.at = at;
    const { buffer, kernels, simd } = pageMemory(at.end, shape.simd);
    this.kernels = kernels;
    this.simd = simd;
    this.query = new Float32Array(buffer, at.query, this.stride);
    this.queryCodes = new Int16Array(buffer, at.queryCodes, this.stride);
    this.sums = new Int32Array(buffer, at.results, capacity);
    this.dots = new Float32Array(buffer, at.results, capacity);
    this.bounds = new Float32Array(buffer, at.bounds, capacity);
    this.whole = new Float32Array(buffer, at.whole, this.stride);
    this.wholeResult = new Float32Array(buffer, at.wholeResult, 1);
    this.codes = new Int8Array(buffer, at.codes, capacity * this.stride);
    this.rows = new Int32Array(buffer, at.rows, capacity);
    this.scales = new Float32Array(buffer, at.scales, capacity);
    this.residuals = new Float32Array(buffer, at.residuals, capacity);
    this.byteLength = buffer.byteLength;
    this.scratch = new Int8Array(dimensions);
  }

  setQuery(unit: Float32Array): void {
    this.query.set(unit);
    this.queryCodes.set(this.query16.codes);
  }

  write(index: number, values: Float32Array, row: number): void {
    const { scale, residual } = quantizeRow(values, this.shape.dimensions, this.codes, index * this.stride);
    this.scales[index] = scale;
    this.residuals[index] = residual;
    this.rows[index] = row;
  }

  matches(index: number, values: Float32Array): boolean {
    const { scale, residual } = quantizeRow(values, this.shape.dimensions, this.scratch, 0);
    if (scale !== this.scales[index] || residual !== this.residuals[index]) return false;
    const at = index * this.stride;
    for (let i = 0; i < this.scratch.length; i++) if (this.scratch[i] !== this.codes[at + i]) return false;
    return true;
  }

  readRounded(index: number, target: Float32Array): void {
    const scale = this.scales[index];
    const n = Math.min(this.stride, target.length);
    for (let i = 0, at = index * this.stride; i < n; i++, at++) target[i] = this.codes[at] * scale;
  }

  copy(source: Int8Page, sourceIndex: number, index: number): void {
    const n = this.stride;
    this.codes.set(source.codes.subarray(sourceIndex * n, (sourceIndex + 1) * n), index * n);
    this.rows[index] = source.rows[sourceIndex];
    this.scales[index] = source.scales[sourceIndex];
    this.residuals[index] = source.residuals[sourceIndex];
  }

  /** Each vector's score from its codes and the query's, and its bound (see vectorInt8.ts). */
  firstPass(count: number): Float32Array {
    this.kernels.dotsInt8(this.at.queryCodes, this.at.codes, count, this.stride, this.at.results);
    const { sums, dots, bounds, scales, residuals } = this;
    const { scale, perResidual, constant } = this.query16;
    for (let j = 0; j < count; j++) {
      const sum = sums[j]; // read before its float overwrites it
      dots[j] = sum * (scales[j] * scale);
      bounds[j] = residuals[j] * perResidual + constant;
    }
    return dots;
  }

  wholeDot(): number {
    this.kernels.dotsF32(this.at.query, this.at.whole, 1, this.stride * 4, this.at.wholeResult);
    return this.wholeResult[0];
  }
}
