/**
 * The 8-bit first pass of {@link VectorIndex} (see vectorPageInt8.ts): each stored unit vector
 * `v` as int8 codes `c` times one float32 scale `s` of its own, the query `q` as int16 codes `c'`
 * times a scale `t`, and the proof that the first pass's score is within a bound of the exact one.
 *
 * Proof. Let v̂ = s·c and q̂ = t·c'. The kernel sums the integers c_i·c'_i exactly (|Σ| < 2^31:
 * see {@link queryCodeLimit}), so the first pass's score â = s·t·Σ c_i·c'_i is v̂·q̂, up to two
 * double roundings. With e = v − v̂ and ‖e‖ ≤ r (computed for each vector when it is stored, in
 * doubles, rounded up), ‖q − q̂‖ ≤ r_q (the same, per query):
 *
 *   v·q − v̂·q̂ = e·q + v̂·(q − q̂),  so  |v·q − â| ≤ r·‖q‖ + ‖v̂‖·r_q ≤ r·‖q‖ + (‖v‖ + r)·r_q
 *
 * by Cauchy–Schwarz and ‖v̂‖ ≤ ‖v‖ + ‖e‖; stored vectors have ‖v‖ ≤ 1 + 2^-20 (vectorIndex.ts
 * normalises them, or keeps one whose norm is within 2^-20 of 1). The exact score is the float32
 * kernel's dot product, within {@link floatSumBound} of v·q; â and the bound are kept as float32,
 * each within 2^-24 of itself (they are below 2 in size): the bound of a vector is
 *
 *   r·(‖q‖ + r_q) + (1 + 2^-20)·r_q + floatSumBound + 2^-22.
 *
 * Codes: s is the vector's largest |component| / 127, rounded to float32, and c_i = round(v_i / s),
 * within ±127. Whatever the codes, the bound holds: r is computed from them. r is typically
 * s·√(d/12), 0.007 for a unit vector of 1,024 dimensions, about twice bfloat16's 2^-8; the
 * query's 16-bit codes add a hundredth of that.
 */
import { floatSumBound } from './vectorPageMemory';

/** The largest |int8 code|. */
const CODE_LIMIT = 127;
/** A relative margin far above the error of a norm computed in doubles (about d·2^-53) and of its rounding to float32 (2^-24): norms rounded up by it stay at least the true ones. */
const ROUND_UP = 1 + 2 ** -20;
/** Norms of the stored vectors are at most this. */
const STORED_NORM_LIMIT = 1 + 2 ** -20;

/** float32 of x, rounded up (x ≥ 0). */
const roundedUp = (x: number) => Math.fround(x * ROUND_UP);

/**
 * Writes the int8 codes of the first `dimensions` values of `values` into `codes` from `at`, and
 * returns the scale `s` and the rounded-up residual norm `r` ≥ ‖values − s·codes‖. Deterministic:
 * the same values give the same codes, scale and residual (a row read back is checked so).
 */
export function quantizeRow(values: Float32Array, dimensions: number, codes: Int8Array, at: number): { scale: number; residual: number } {
  let max = 0;
  for (let i = 0; i < dimensions; i++) max = Math.max(max, Math.abs(values[i]));
  const scale = Math.fround(max / CODE_LIMIT);
  let squares = 0;
  for (let i = 0; i < dimensions; i++) {
    const code = scale === 0 ? 0 : Math.max(-CODE_LIMIT, Math.min(CODE_LIMIT, Math.round(values[i] / scale)));
    codes[at + i] = code;
    const error = values[i] - code * scale;
    squares += error * error;
  }
  return { scale, residual: roundedUp(Math.sqrt(squares)) };
}

/**
 * The largest |int16 code| of a query against vectors `stride` codes long: the kernel's integer sum
 * of stride products of at most 127 × this stays below 2^31 (16,512 at 1,024 dimensions).
 */
export function queryCodeLimit(stride: number): number {
  return Math.min(32767, Math.floor((2 ** 31 - 1) / (CODE_LIMIT * stride)));
}

/** The running search's query, as int16 codes, and what turns a vector's kernel sum into its score and bound. */
export class QueryCodes {
  readonly codes: Int16Array;
  /** The query's scale t. */
  scale = 0;
  /** A vector's bound is its residual × this, plus {@link constant}. */
  perResidual = 0;
  constant = 0;

  constructor(
    private readonly dimensions: number,
    stride: number,
  ) {
    this.codes = new Int16Array(stride);
  }

  /** Codes the unit query `unit` (`dimensions` floats) and works out its bound's terms (see the file comment). */
  load(unit: Float32Array): void {
    const d = this.dimensions;
    let max = 0;
    let norm = 0;
    for (let i = 0; i < d; i++) {
      max = Math.max(max, Math.abs(unit[i]));
      norm += unit[i] * unit[i];
    }
    const limit = queryCodeLimit(this.codes.length);
    const scale = max / limit;
    let squares = 0;
    for (let i = 0; i < d; i++) {
      const code = scale === 0 ? 0 : Math.max(-limit, Math.min(limit, Math.round(unit[i] / scale)));
      this.codes[i] = code;
      const error = unit[i] - code * scale;
      squares += error * error;
    }
    const residual = Math.sqrt(squares) * ROUND_UP;
    this.scale = scale;
    this.perResidual = Math.sqrt(norm) * ROUND_UP + residual;
    this.constant = STORED_NORM_LIMIT * residual + floatSumBound(d) + 2 ** -22;
  }
}
