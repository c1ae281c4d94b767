/**
 * Okapi BM25: how well each document a query's words are found in matches the query, from how
 * often each word is in it, how many documents have the word, and how long the document is
 * against the average. keywordIndex.ts finds the postings; this scores them.
 */

/** BM25's term-frequency saturation and length normalisation, the usual values (Robertson & Zaragoza 2009). */
const K1 = 1.2;
const B = 0.75;

/** The documents that match a query, and how well. Arrays indexed by document id are the search's own. */
export interface KeywordSearch {
  /** The documents that have at least one of the query's words, in no particular order. */
  docs: number[];
  /** BM25 score by document id (greater is better; 0 for a document not in `docs`). */
  scores: Float64Array;
  /** Which of the query's words each document has, by document id: bit i for the i-th distinct word. */
  words: Int32Array;
  /**
   * The bits of the query's words some document has: bit i for the i-th distinct word of the query
   * (of the first {@link MASK_WORDS}), whether or not this index knows it, so masks of two indexes
   * searched with the same words combine.
   */
  allWords: number;
}

/** Query words tracked per match in {@link KeywordMatch.words}; later ones still score. */
export const MASK_WORDS = 30;

/** The documents searched: how many, their length in all, and each one's by id (ids are below `idLimit`). */
export interface ScoredDocuments {
  documents: number;
  totalLength: number;
  lengths: Uint32Array;
  idLimit: number;
}

/** A search that matches no document. */
export function noMatches(idLimit: number): KeywordSearch {
  return { docs: [], scores: new Float64Array(idLimit), words: new Int32Array(idLimit), allWords: 0 };
}

/**
 * Scores the postings of a query's distinct words: `hits` holds a triple per posting (document,
 * the word's place in the query, the word's count in the document), `frequency` each word's
 * document frequency by its place.
 */
export function scoreHits(hits: readonly number[], frequency: Uint32Array, collection: ScoredDocuments): KeywordSearch {
  const { documents, totalLength, lengths, idLimit } = collection;
  const scores = new Float64Array(idLimit);
  const has = new Int32Array(idLimit);
  const touched: number[] = [];
  const averageLength = totalLength / documents || 1;
  const idf = Array.from(frequency, (df) => Math.log(1 + (documents - df + 0.5) / (df + 0.5)));
  for (let i = 0; i < hits.length; i += 3) {
    const doc = hits[i];
    const at = hits[i + 1];
    const count = hits[i + 2];
    if (scores[doc] === 0) touched.push(doc);
    const norm = K1 * (1 - B + (B * lengths[doc]) / averageLength);
    scores[doc] += (idf[at] * count * (K1 + 1)) / (count + norm);
    has[doc] |= bit(at);
  }
  let allWords = 0;
  // Only the words the index knows have postings, so only theirs can have a frequency.
  for (let at = 0; at < frequency.length; at++) if (frequency[at] > 0) allWords |= bit(at);
  return { docs: touched, scores, words: has, allWords };
}

/** The mask bit of the query's `at`-th word. */
function bit(at: number): number {
  return at < MASK_WORDS ? 1 << at : 0;
}
