/**
 * Input checking for {@link VectorIndex}: every vector and query passes through here before the
 * index changes, so a bad input leaves the index as it was.
 */

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
  if (Number.isFinite(sum)) return Math.sqrt(sum);
  // NaN, ±Infinity, or finite components whose squares overflow (only possible in a number[]).
  let max = 0;
  for (let i = 0; i < d; i++) {
    const x = vector[i];
    if (typeof x !== 'number' || !Number.isFinite(x)) {
      throw new Error(`VectorIndex: the ${what}'s component ${i} is ${String(x)}, not a finite number`);
    }
    max = Math.max(max, Math.abs(x));
  }
  // Scaling by the largest component keeps the squares finite.
  let scaled = 0;
  for (let i = 0; i < d; i++) scaled += (vector[i] / max) * (vector[i] / max);
  return max * Math.sqrt(scaled);
}
