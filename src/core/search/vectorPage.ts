/**
 * One storage page of {@link VectorIndex}: up to `capacity` unit vectors as float32 (and, in a
 * quantized index, their int8 codes), one after another, in a memory of the page's own that the
 * kernels scan in place.
 *
 * With WebAssembly SIMD the memory is a WebAssembly.Memory with its own instance of the kernels
 * (a module can import only one memory, and a page per memory lets pages be freed one by one,
 * which a growing shared memory could not); otherwise it is an ArrayBuffer scanned by the plain
 * loops. Layout, each part 64-byte aligned:
 *
 *   float query | int16 query codes | results (one 32-bit number per vector) | vectors | codes
 *
 * Vectors are `floatStride` floats apart (the dimensions rounded up to the SIMD step, zero padded),
 * codes `codeStride` bytes apart.
 */
import { plainKernels } from './vectorKernels';
import { F32_STEP_BYTES, I8_STEP_BYTES, instantiateKernels, type SimdKernels, simdModule } from './vectorSimd';

const ALIGN = 64;
const WASM_PAGE_BYTES = 65536;

const align = (bytes: number) => Math.ceil(bytes / ALIGN) * ALIGN;

/** Floats per stored vector: `dimensions` rounded up to what the float kernel takes a step. */
export function floatStride(dimensions: number): number {
  const step = F32_STEP_BYTES / 4;
  return Math.ceil(dimensions / step) * step;
}

/** Bytes per coded vector: `dimensions` rounded up to what the int8 kernel takes a step. */
export function codeStride(dimensions: number): number {
  return Math.ceil(dimensions / I8_STEP_BYTES) * I8_STEP_BYTES;
}

export interface PageShape {
  dimensions: number;
  /** Vectors the page holds. */
  capacity: number;
  /** Whether the page also holds int8 codes (and their scales). */
  quantized: boolean;
  /** `simd: false` forces the plain loops (tests compare the two). */
  simd?: boolean;
}

export class VectorPage {
  /** Whether the SIMD kernels scan this page (false: the plain loops). */
  readonly simd: boolean;
  readonly floatStride: number;
  readonly codeStride: number;
  /** The vectors, `floatStride` floats each; the padding stays zero. */
  readonly floats: Float32Array;
  /** With `quantized`: the int8 codes, `codeStride` bytes each; the padding stays zero. */
  readonly codes: Int8Array;
  /** With `quantized`: per vector, the factor from its codes back to its components. */
  readonly scales: Float32Array;
  /** The query the next float scan compares with (`floatStride` floats, zero padded). */
  readonly query: Float32Array;
  /** The query codes the next int8 scan compares with (`codeStride` entries, zero padded). */
  readonly queryCodes: Int16Array;
  /** Bytes this page holds. */
  readonly byteLength: number;

  private readonly kernels: SimdKernels;
  private readonly floatResults: Float32Array;
  private readonly intResults: Int32Array;
  private readonly at: { query: number; queryCodes: number; results: number; floats: number; codes: number };

  constructor(shape: PageShape) {
    const { dimensions, capacity, quantized } = shape;
    this.floatStride = floatStride(dimensions);
    this.codeStride = quantized ? codeStride(dimensions) : 0;
    const query = 0;
    const queryCodes = query + align(this.floatStride * 4);
    const results = queryCodes + align(this.codeStride * 2);
    const floats = results + align(capacity * 4);
    const codes = floats + capacity * this.floatStride * 4;
    const end = codes + capacity * this.codeStride;
    this.at = { query, queryCodes, results, floats, codes };

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
    this.queryCodes = new Int16Array(buffer, queryCodes, this.codeStride);
    this.floatResults = new Float32Array(buffer, results, capacity);
    this.intResults = new Int32Array(buffer, results, capacity);
    this.floats = new Float32Array(buffer, floats, capacity * this.floatStride);
    this.codes = new Int8Array(buffer, codes, capacity * this.codeStride);
    this.scales = new Float32Array(quantized ? capacity : 0);
    this.byteLength = buffer.byteLength + this.scales.byteLength;
  }

  /** The float dot products of {@link query} with vectors `from` … `from + count - 1`; reused by the next scan. */
  floatDots(from: number, count: number): Float32Array {
    const stride = this.floatStride * 4;
    this.kernels.dotsF32(this.at.query, this.at.floats + from * stride, count, stride, this.at.results);
    return this.floatResults;
  }

  /** The integer dot products of {@link queryCodes} with the codes of the first `count` vectors; reused by the next scan. */
  codeDots(count: number): Int32Array {
    this.kernels.dotsI8(this.at.queryCodes, this.at.codes, count, this.codeStride, this.at.results);
    return this.intResults;
  }
}
