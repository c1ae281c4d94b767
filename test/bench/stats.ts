/** Small statistics for the benchmarks. */

export function median(values: readonly number[]): number {
  return percentile(values, 0.5);
}

/** The p-quantile (0 ≤ p ≤ 1) by linear interpolation between the closest ranks. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * p;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low] + (sorted[high] - sorted[low]) * (at - low);
}
