/**
 * The int8 side of VectorIndex's quantised search: how a unit vector becomes int8 codes,
 * and a scanner that computes the integer dot products of one query with many coded vectors.
 *
 * The scanner runs a small WebAssembly SIMD kernel (assembled below, no toolchain needed) when the
 * runtime supports it, and an equivalent plain loop otherwise; both return exactly the same
 * integers. The kernel works on its own fixed-size memory: each chunk of a page is copied in and
 * scanned there, so the index keeps ordinary typed-array pages that it can grow and free freely.
 * (Measured: the copy costs ~25 % against scanning in place, and plain JavaScript on int8 is slower
 * than the float scan, so without SIMD the quantised search does not pay.)
 */

/** Bytes per coded vector are padded to a multiple of this (the kernel reads 32 bytes a step). */
export const INT8_ALIGN = 32;

/** Bytes of coded vectors copied into the kernel's memory and scanned at a time (fits in L2). */
const CHUNK_BYTES = 128 * 1024;

/** The byte stride of a coded vector of `dimensions` components. */
export function int8Stride(dimensions: number): number {
  return Math.ceil(dimensions / INT8_ALIGN) * INT8_ALIGN;
}

/**
 * Writes the int8 codes of `source[from .. from + dimensions)` to `target` at `at` (the padding up
 * to the stride must already be zero) and returns the scale: component ≈ code × scale.
 * A zero vector gets zero codes and scale 0.
 */
export function quantizeInt8(source: Float32Array, from: number, dimensions: number, target: Int8Array, at: number): number {
  let max = 0;
  for (let i = 0; i < dimensions; i++) {
    const a = Math.abs(source[from + i]);
    if (a > max) max = a;
  }
  if (max === 0) {
    target.fill(0, at, at + dimensions);
    return 0;
  }
  const toCode = 127 / max;
  for (let i = 0; i < dimensions; i++) target[at + i] = Math.round(source[from + i] * toCode);
  return max / 127;
}

/**
 * The largest query code for which no sum can overflow int32: every partial sum is bounded by
 * Σ|code × queryCode| ≤ 127 × limit × stride.
 */
export function queryCodeLimit(stride: number): number {
  return Math.min(32767, Math.floor(0x7fffffff / (127 * stride)));
}

/** Integer dot products of one int16-coded query with int8-coded vectors. */
export class Int8Scanner {
  /** Whether the WebAssembly SIMD kernel is in use (false: the plain loop). */
  readonly simd: boolean;
  private readonly stride: number;
  /** The query's codes, `stride` entries (zero padded). In the kernel's memory when `simd`. */
  readonly query: Int16Array;
  /** The most vectors one {@link dots} call takes. */
  readonly chunkVectors: number;
  private readonly kernel: ((query: number, base: number, count: number, stride: number, out: number) => void) | undefined;
  private readonly data: Int8Array | undefined;
  private readonly out: Int32Array;
  private readonly dataAt: number;
  private readonly outAt: number;

  /**
   * @param stride bytes per coded vector, a multiple of {@link INT8_ALIGN}.
   * @param options `simd: false` forces the plain loop (tests compare the two).
   */
  constructor(stride: number, options: { simd?: boolean } = {}) {
    if (!Number.isInteger(stride) || stride <= 0 || stride % INT8_ALIGN !== 0) {
      throw new Error(`Int8Scanner: the stride must be a positive multiple of ${INT8_ALIGN}, got ${stride}`);
    }
    this.stride = stride;
    this.chunkVectors = Math.max(1, Math.floor(CHUNK_BYTES / stride));
    const module = options.simd === false ? undefined : simdModule();
    if (module) {
      // Layout: query (int16, stride entries) | results (int32, chunkVectors entries) | data.
      this.outAt = stride * 2;
      this.dataAt = this.outAt + this.chunkVectors * 4;
      const bytes = this.dataAt + this.chunkVectors * stride;
      const memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / 65536) });
      const instance = new WebAssembly.Instance(module, { env: { memory } });
      this.kernel = instance.exports.scan as (query: number, base: number, count: number, stride: number, out: number) => void;
      this.query = new Int16Array(memory.buffer, 0, stride);
      this.out = new Int32Array(memory.buffer, this.outAt, this.chunkVectors);
      this.data = new Int8Array(memory.buffer, this.dataAt, this.chunkVectors * stride);
      this.simd = true;
    } else {
      this.outAt = 0;
      this.dataAt = 0;
      this.kernel = undefined;
      this.data = undefined;
      this.query = new Int16Array(stride);
      this.out = new Int32Array(this.chunkVectors);
      this.simd = false;
    }
  }

  /**
   * The integer dot products of {@link query} with the `count` coded vectors of `page` from vector
   * `start` on, in order. `count` must be at most {@link chunkVectors}; the returned array is
   * reused by the next call.
   */
  dots(page: Int8Array, start: number, count: number): Int32Array {
    const stride = this.stride;
    if (this.kernel && this.data) {
      this.data.set(page.subarray(start * stride, (start + count) * stride));
      this.kernel(0, this.dataAt, count, stride, this.outAt);
    } else {
      dotsInt8(page, start * stride, count, stride, this.query, this.out);
    }
    return this.out;
  }
}

/** The plain-loop kernel: `out[j]` = codes of vector j (from `base`) · `query`. */
function dotsInt8(page: Int8Array, base: number, count: number, stride: number, query: Int16Array, out: Int32Array): void {
  for (let j = 0, o = base; j < count; j++, o += stride) {
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let i = 0; i < stride; i += 4) {
      s0 += page[o + i] * query[i];
      s1 += page[o + i + 1] * query[i + 1];
      s2 += page[o + i + 2] * query[i + 2];
      s3 += page[o + i + 3] * query[i + 3];
    }
    out[j] = s0 + s1 + s2 + s3;
  }
}

let compiled: WebAssembly.Module | null | undefined;

/** The compiled kernel, or null when this runtime has no WebAssembly SIMD. */
function simdModule(): WebAssembly.Module | null {
  if (compiled === undefined) {
    try {
      const bytes = kernelBytes();
      compiled = typeof WebAssembly === 'object' && WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

function uleb(value: number): number[] {
  const bytes: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (value !== 0);
  return bytes;
}

function sleb(value: number): number[] {
  const bytes: number[] = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    if ((value === 0 && (byte & 0x40) === 0) || (value === -1 && (byte & 0x40) !== 0)) {
      bytes.push(byte);
      return bytes;
    }
    bytes.push(byte | 0x80);
  }
}

/**
 * The module, in WebAssembly's binary format. It imports `env.memory` and exports
 *
 *   scan(query, base, count, stride, out)   (all i32; addresses in bytes)
 *
 * which, for each of `count` vectors of `stride` int8 codes from `base`, stores at `out` (i32, one
 * per vector) the dot product with the `stride` int16 codes at `query`. Per 32 bytes of a vector:
 * two 16-byte loads, each widened to two i16x8 halves, multiplied and pairwise added with the
 * query by i32x4.dot_i16x8_s into four i32x4 accumulators.
 */
function kernelBytes(): Uint8Array<ArrayBuffer> {
  const I32 = 0x7f;
  const V128 = 0x7b;
  // Locals: 0 query, 1 base, 2 count, 3 stride, 4 out (parameters); 5 p, 6 q, 7 end (i32);
  // 8..11 accumulators, 12 the loaded codes (v128).
  const get = (local: number) => [0x20, local];
  const set = (local: number) => [0x21, local];
  const tee = (local: number) => [0x22, local];
  const i32 = (value: number) => [0x41, ...sleb(value)];
  const add = 0x6a;
  const sub = 0x6b;
  const simd = (op: number, ...immediates: number[]) => [0xfd, ...uleb(op), ...immediates];
  const load = (offset: number) => simd(0x00, 4, ...uleb(offset)); // v128.load align=16
  const zero = simd(0x0c, ...new Array<number>(16).fill(0)); // v128.const 0
  const extendLow = simd(0x87); // i16x8.extend_low_i8x16_s
  const extendHigh = simd(0x88); // i16x8.extend_high_i8x16_s
  const dot = simd(0xba); // i32x4.dot_i16x8_s
  const add32x4 = simd(0xae); // i32x4.add
  const lane = (n: number) => simd(0x1b, n); // i32x4.extract_lane
  /** Accumulates 16 codes at p+offset against 16 query entries at q+2×offset. */
  const step = (offset: number, low: number, high: number) => [
    ...get(5), ...load(offset), ...tee(12), ...extendLow, ...get(6), ...load(offset * 2), ...dot, ...get(low), ...add32x4, ...set(low),
    ...get(12), ...extendHigh, ...get(6), ...load(offset * 2 + 16), ...dot, ...get(high), ...add32x4, ...set(high),
  ];
  const body = [
    0x02, 0x40, 0x03, 0x40, // block, loop (per vector)
    ...get(2), 0x45, 0x0d, 1, // if count == 0, leave
    ...zero, ...set(8), ...zero, ...set(9), ...zero, ...set(10), ...zero, ...set(11),
    ...get(1), ...set(5), ...get(0), ...set(6), ...get(1), ...get(3), add, ...set(7),
    0x02, 0x40, 0x03, 0x40, // block, loop (per 32 codes)
    ...get(5), ...get(7), 0x4f, 0x0d, 1, // if p >= end, leave
    ...step(0, 8, 9), ...step(16, 10, 11),
    ...get(5), ...i32(32), add, ...set(5), ...get(6), ...i32(64), add, ...set(6),
    0x0c, 0, 0x0b, 0x0b, // br loop; end; end
    ...get(4), // address for the store below
    ...get(8), ...get(9), ...add32x4, ...get(10), ...get(11), ...add32x4, ...add32x4, ...set(8),
    ...get(8), ...lane(0), ...get(8), ...lane(1), add, ...get(8), ...lane(2), ...get(8), ...lane(3), add, add,
    0x36, 2, 0, // i32.store
    ...get(4), ...i32(4), add, ...set(4), ...get(7), ...set(1), ...get(2), ...i32(1), sub, ...set(2),
    0x0c, 0, 0x0b, 0x0b, // br loop; end; end
    0x0b, // end of function
  ];
  const func = [2, 3, I32, 5, V128, ...body];
  const name = (text: string) => [...uleb(text.length), ...Array.from(text, (c) => c.charCodeAt(0))];
  const section = (id: number, bytes: number[]) => [id, ...uleb(bytes.length), ...bytes];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 5, I32, I32, I32, I32, I32, 0]), // type: (i32 ×5) -> ()
    ...section(2, [1, ...name('env'), ...name('memory'), 0x02, 0x00, 1]), // import memory, min 1 page
    ...section(3, [1, 0]), // one function of type 0
    ...section(7, [1, ...name('scan'), 0x00, 0]), // export it
    ...section(10, [1, ...uleb(func.length), ...func]), // its code
  ]);
}
