export interface ScoredId {
  id: string;
  score: number;
}

/**
 * The `k` entries most cosine-similar to `query`, best first: the exact search used when no
 * nearest-neighbour index was injected. Vectors missing or of another length are skipped.
 */
export function exactCosineTopK(query: Float32Array, entries: Iterable<[string, Float32Array | undefined]>, k: number): ScoredId[] {
  const queryNorm = Math.sqrt(dot(query, query));
  if (!(queryNorm > 0)) return [];
  const scored: ScoredId[] = [];
  for (const [id, vector] of entries) {
    if (!vector || vector.length !== query.length) continue;
    const norm = Math.sqrt(dot(vector, vector));
    if (norm > 0) scored.push({ id, score: dot(query, vector) / (queryNorm * norm) });
  }
  scored.sort((a, b) => b.score - a.score);
  return scored.slice(0, k);
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}
