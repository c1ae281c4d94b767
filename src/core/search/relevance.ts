import type { SearchHit } from './indexerTypes';

/**
 * The hits that score at least `share` of the best one (hits come best first). Scores of one
 * query compare with each other, not across queries: a file of unrelated text scores about 0
 * against the best match's 0.5, so a share of the best tells noise from a weaker match.
 */
export function relevantHits(hits: readonly SearchHit[], share: number): SearchHit[] {
  const floor = Math.max(0, (hits[0]?.score ?? 0) * share);
  return hits.filter((hit) => hit.score > floor);
}
