/**
 * Reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009): an item's fused score is the sum,
 * over the rankings that hold it, of 1 / (k + its rank there), ranks from 1. Only ranks count, so
 * rankings whose scores do not compare (a cosine, a BM25 sum) fuse without tuning a weight, and an
 * item first in one ranking stays near the top even when another misses it.
 */

/**
 * The paper's constant, the usual choice: the top ranks weigh little more than the next few
 * (1/61 against 1/70 for the tenth), so items both rankings place well come first, and the first
 * place of one ranking alone still outweighs any item ranked below 62nd in both.
 */
export const RRF_K = 60;

export interface FusedItem<T> {
  item: T;
  /** Σ 1 / (k + rank) over the rankings that hold the item. */
  score: number;
}

/**
 * The items of `rankings` (each best first, an item at most once in each) by fused score, best
 * first. Ties go to the item with the better best rank, then to the earlier ranking's.
 */
export function fuseRankings<T>(rankings: readonly (readonly T[])[], k = RRF_K): FusedItem<T>[] {
  const fused = new Map<T, FusedItem<T>>();
  // Visited rank by rank across the rankings, so the Map's order is the tie order.
  const depth = Math.max(0, ...rankings.map((ranking) => ranking.length));
  for (let rank = 0; rank < depth; rank++) {
    for (const ranking of rankings) {
      if (rank >= ranking.length) continue;
      const item = ranking[rank];
      const entry = fused.get(item);
      if (entry) entry.score += 1 / (k + rank + 1);
      else fused.set(item, { item, score: 1 / (k + rank + 1) });
    }
  }
  // Array.prototype.sort is stable: equal scores keep the Map's order.
  return [...fused.values()].sort((a, b) => b.score - a.score);
}
