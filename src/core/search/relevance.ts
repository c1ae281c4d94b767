import type { SearchHit } from './indexerTypes';

/**
 * The hits that score more than `share` of the best one, and those that hold every word of the
 * query (`exact`: a name or message the embedding may miss). Scores of one query compare with each
 * other, not across queries: a file of unrelated text scores about 0 against the best match's 0.5,
 * so a share of the best tells noise from a weaker match.
 */
export function relevantHits(hits: readonly SearchHit[], share: number): SearchHit[] {
  const floor = bestScore(hits) * share;
  return hits.filter((hit) => hit.exact === true || hit.score > floor);
}

/** The greatest score of `hits` (0 if none is positive): hybrid search does not order hits by score alone. */
export function bestScore(hits: readonly SearchHit[]): number {
  return hits.reduce((most, hit) => Math.max(most, hit.score), 0);
}

/** How well a hit matches, in words a person can read at a glance (the raw cosine means nothing to them). */
export type MatchStrength = 'strong' | 'good' | 'weak';

/**
 * A hit's match, against the best hit of the same query (`best`: its score), as scores compare only
 * within one query: within three quarters of the best is strong, within two fifths good, the rest
 * weak; a hit that holds every word of the query (`exact`) is strong.
 */
export function matchStrength(score: number, best: number, exact = false): MatchStrength {
  if (exact) return 'strong';
  const share = best > 0 ? score / best : 0;
  return share >= 0.75 ? 'strong' : share >= 0.4 ? 'good' : 'weak';
}
