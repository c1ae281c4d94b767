/**
 * Input checking for {@link VectorIndex}: every vector and query passes through here before the
 * index changes, so a bad input leaves the index as it was.
 */

/** Below this a sum of squares may have lost precision to subnormal squares (2^-1022 and less). */
const SMALLEST_EXACT_SUM = 2 ** -960;

/**
 * The Euclidean norm of `vector`, after checking its length is `d` and its components are finite.
 *
 * @throws Error naming `what` if the length is wrong or a component is not a finite number.
 */
export function checkedNorm(vector: ArrayLike<number>, d: number, what: 'vector' | 'query'): number {
  if (vector.length !== d) {
    throw new Error(`VectorIndex: the ${what} has ${vector.length} dimensions, the index has ${d}`);
  }
  let sum = 0;
  for (let i = 0; i < d; i++) sum += vector[i] * vector[i];
  if (Number.isFinite(sum) && sum >= SMALLEST_EXACT_SUM) return Math.sqrt(sum);
  // NaN, ±Infinity, a zero vector, or finite components whose squares overflow or underflow (only
  // possible in a number[]: a wrong norm would leave the "unit" vector longer than 1, and the
  // search's rounding bound assumes it is not).
  let max = 0;
  for (let i = 0; i < d; i++) {
    const x = vector[i];
    if (typeof x !== 'number' || !Number.isFinite(x)) {
      throw new Error(`VectorIndex: the ${what}'s component ${i} is ${String(x)}, not a finite number`);
    }
    max = Math.max(max, Math.abs(x));
  }
  if (max === 0) return 0;
  // Scaling by the largest component keeps the squares finite and out of the subnormals.
  let scaled = 0;
  for (let i = 0; i < d; i++) scaled += (vector[i] / max) * (vector[i] / max);
  return max * Math.sqrt(scaled);
}
