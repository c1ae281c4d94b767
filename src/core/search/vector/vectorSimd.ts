/**
 * The vector index's WebAssembly SIMD kernels, assembled here (see wasmBinary.ts). Each computes,
 * for `count` vectors stored one after another from `base`, `stride` bytes apart, the dot product
 * with the query at `query`, and store one result per vector at `out` (all addresses in bytes, in
 * the memory the module imports):
 *
 *   dotsF32(query, base, count, stride, out)  float32 vectors and query, float32 results; stride a
 *     multiple of 64. Four f32x4 accumulators take 16 floats a step.
 *   dotsRounded(query, base, count, stride, out)  vectors of 16-bit rounded floats (bfloat16: the
 *     high half of a float32) against a float32 query, float32 results; stride a multiple of 32.
 *     Each 8 values are widened to two f32x4 by shifting them into the high half of 32-bit lanes,
 *     then multiplied and added as in dotsF32, 16 values a step. Half the bytes of dotsF32.
 *   dotsInt8(query, base, count, stride, out)  vectors of int8 codes against a query of int16 codes,
 *     int32 results, exact (the caller keeps |sum| < 2^31); stride a multiple of 32. Each 16 codes
 *     are widened to two i16x8 and multiplied with the query's by i32x4.dot_i16x8_s, 32 codes a
 *     step (as fast as 64 or two vectors at a time, here). A quarter of the bytes of dotsF32.
 *
 * Each vector's lanes are summed in one fixed order, so a vector's score does not depend on where
 * it is stored or how many vectors one call takes.
 */
import {
  f32Add,
  I32,
  i32Add,
  i32Const,
  i32Eqz,
  i32GeU,
  i32Store,
  i32Sub,
  type KernelFunction,
  localGet as get,
  localSet as set,
  localTee as tee,
  loopUntil,
  moduleBytes,
  simd,
  f32Store,
  V128,
  v128Load as load,
  v128Zero as zero,
} from './wasmBinary';

/** Bytes of float32 vectors the float kernel takes a step (the stride must be a multiple). */
export const F32_STEP_BYTES = 64;
/** Bytes of rounded vectors the rounded kernel takes a step (the stride must be a multiple). */
export const ROUNDED_STEP_BYTES = 32;
/** Bytes of int8 vectors the int8 kernel takes a step (the stride must be a multiple). */
export const INT8_STEP_BYTES = 32;

export type DotsKernel = (query: number, base: number, count: number, stride: number, out: number) => void;

export interface SimdKernels {
  dotsF32: DotsKernel;
  dotsRounded: DotsKernel;
  dotsInt8: DotsKernel;
}

// Locals shared by both functions: 0 query, 1 base, 2 count, 3 stride, 4 out (parameters);
// 5 p (the vector's next bytes), 6 q (the query's), 7 end (the vector's end); 8..11 accumulators;
// 12 the loaded rounded values or int8 codes (rounded and int8 only).
const P = 5;
const Q = 6;
const END = 7;
const ACC = [8, 9, 10, 11];

/** The loop over vectors around `inner` (which consumes one vector), and the store (f32 or i32) of its result. */
function perVector(inner: number[], step: number, reduce: number[], store = f32Store): number[] {
  return loopUntil(
    [...get(2), ...i32Eqz],
    [
      ...ACC.flatMap((acc) => [...zero, ...set(acc)]),
      ...get(1),
      ...set(P),
      ...get(0),
      ...set(Q),
      ...get(1),
      ...get(3),
      ...i32Add,
      ...set(END),
      ...loopUntil([...get(P), ...get(END), ...i32GeU], [...inner, ...get(P), ...i32Const(step), ...i32Add, ...set(P)]),
      ...get(4), // the address the result is stored at
      ...reduce,
      ...store,
      ...get(4),
      ...i32Const(4),
      ...i32Add,
      ...set(4),
      ...get(END),
      ...set(1),
      ...get(2),
      ...i32Const(1),
      ...i32Sub,
      ...set(2),
    ],
  );
}

/** A kernel of the five parameters above, its locals, and its loop over vectors around `inner`. */
function kernel(name: string, inner: number[], step: number, reduce: number[], store = f32Store): KernelFunction {
  return {
    name,
    parameters: 5,
    locals: [
      { count: 3, type: I32 },
      { count: 5, type: V128 },
    ],
    body: perVector(inner, step, reduce, store),
  };
}

const f32Mul = simd(0xe6); // f32x4.mul
const f32x4Add = simd(0xe4); // f32x4.add

/** The four accumulators added lane by lane into the first, with `add`: (a0 + a1) + (a2 + a3). */
const sumAccumulators = (add: number[]) => [...get(8), ...get(9), ...add, ...get(10), ...get(11), ...add, ...add, ...set(8)];

/** The float accumulators summed into one float: (a0 + a1) + (a2 + a3), then lanes (0 + 1) + (2 + 3). */
function reduceF32(): number[] {
  const lane = (n: number) => simd(0x1f, n); // f32x4.extract_lane
  return [
    ...sumAccumulators(f32x4Add),
    ...get(8),
    ...lane(0),
    ...get(8),
    ...lane(1),
    ...f32Add,
    ...get(8),
    ...lane(2),
    ...get(8),
    ...lane(3),
    ...f32Add,
    ...f32Add,
  ];
}

/** Four floats (on the stack) times the query's four at q+offset, added to accumulator `acc`. */
const multiplyAdd = (offset: number, acc: number) => [...get(Q), ...load(offset), ...f32Mul, ...get(acc), ...f32x4Add, ...set(acc)];

function dotsF32(): KernelFunction {
  const inner = [
    ...ACC.flatMap((acc, i) => [...get(P), ...load(16 * i), ...multiplyAdd(16 * i, acc)]),
    ...get(Q),
    ...i32Const(F32_STEP_BYTES),
    ...i32Add,
    ...set(Q),
  ];
  return kernel('dotsF32', inner, F32_STEP_BYTES, reduceF32());
}

function dotsRounded(): KernelFunction {
  const extendLow = simd(0xa9); // i32x4.extend_low_i16x8_u
  const extendHigh = simd(0xaa); // i32x4.extend_high_i16x8_u
  const shiftLeft = simd(0xab); // i32x4.shl
  /** 8 rounded values at p+offset as two f32x4, against 8 query floats at q+2×offset, into accumulators low and high. */
  const eight = (offset: number, low: number, high: number) => [
    ...get(P),
    ...load(offset),
    ...tee(12),
    ...extendLow,
    ...i32Const(16),
    ...shiftLeft,
    ...multiplyAdd(offset * 2, low),
    ...get(12),
    ...extendHigh,
    ...i32Const(16),
    ...shiftLeft,
    ...multiplyAdd(offset * 2 + 16, high),
  ];
  const inner = [...eight(0, 8, 9), ...eight(16, 10, 11), ...get(Q), ...i32Const(2 * ROUNDED_STEP_BYTES), ...i32Add, ...set(Q)];
  return kernel('dotsRounded', inner, ROUNDED_STEP_BYTES, reduceF32());
}

/** The integer accumulators summed into one i32: (a0 + a1) + (a2 + a3), then its four lanes. */
function reduceI32(): number[] {
  const i32x4Add = simd(0xae);
  const lane = (n: number) => simd(0x1b, n); // i32x4.extract_lane
  return [...sumAccumulators(i32x4Add), ...[0, 1, 2, 3].flatMap((n) => [...get(8), ...lane(n)]), ...i32Add, ...i32Add, ...i32Add];
}

function dotsInt8(): KernelFunction {
  const extendLow = simd(0x87); // i16x8.extend_low_i8x16_s
  const extendHigh = simd(0x88); // i16x8.extend_high_i8x16_s
  const dot = simd(0xba); // i32x4.dot_i16x8_s
  const i32x4Add = simd(0xae);
  /** Eight codes (an i16x8 on the stack) times the query's eight at q+offset, added to accumulator `acc`. */
  const dotAdd = (offset: number, acc: number) => [...get(Q), ...load(offset), ...dot, ...get(acc), ...i32x4Add, ...set(acc)];
  /** 16 codes at p+offset against 16 query codes at q+2×offset, into accumulators low and high. */
  const sixteen = (offset: number, low: number, high: number) => [
    ...get(P),
    ...load(offset),
    ...tee(12),
    ...extendLow,
    ...dotAdd(offset * 2, low),
    ...get(12),
    ...extendHigh,
    ...dotAdd(offset * 2 + 16, high),
  ];
  // The step's blocks of 16 codes, each into two of the four accumulators in turn.
  const blocks = Array.from({ length: INT8_STEP_BYTES / 16 }, (_, b) => sixteen(16 * b, ACC[(2 * b) % 4], ACC[(2 * b + 1) % 4]));
  const inner = [...blocks.flat(), ...get(Q), ...i32Const(2 * INT8_STEP_BYTES), ...i32Add, ...set(Q)];
  return kernel('dotsInt8', inner, INT8_STEP_BYTES, reduceI32(), i32Store);
}

let compiled: WebAssembly.Module | null | undefined;

/** The compiled module, or null when this runtime has no WebAssembly SIMD. */
export function simdModule(): WebAssembly.Module | null {
  if (compiled === undefined) {
    try {
      const bytes = moduleBytes([dotsF32(), dotsRounded(), dotsInt8()]);
      compiled = typeof WebAssembly === 'object' && WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

/** The kernels, working on `memory`. */
export function instantiateKernels(module: WebAssembly.Module, memory: WebAssembly.Memory): SimdKernels {
  const exports = new WebAssembly.Instance(module, { env: { memory } }).exports;
  return { dotsF32: exports.dotsF32 as DotsKernel, dotsRounded: exports.dotsRounded as DotsKernel, dotsInt8: exports.dotsInt8 as DotsKernel };
}
