/**
 * How a unit vector becomes int8 codes for the quantised search, and how far a query's int16 codes
 * may reach (the SIMD kernel that scans them is in vectorSimd.ts).
 */

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
