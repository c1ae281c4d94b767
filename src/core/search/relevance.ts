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

/** How well a hit matches, in words a person can read at a glance (the raw cosine means nothing to them). */
export type MatchStrength = 'strong' | 'good' | 'weak';

/**
 * A hit's match, against the best hit of the same query (`best`: its score), as scores compare only
 * within one query: within three quarters of the best is strong, within two fifths good, the rest weak.
 */
export function matchStrength(score: number, best: number): MatchStrength {
  const share = best > 0 ? score / best : 0;
  return share >= 0.75 ? 'strong' : share >= 0.4 ? 'good' : 'weak';
}
