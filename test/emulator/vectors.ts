// Deterministic embedding vectors: hashed features (word unigrams and character trigrams, FNV-1a
// into buckets with a ±1 sign from the hash), L2-normalised. Texts that share words land close
// together, unrelated texts near orthogonal: enough for retrieval tests to have a right answer.
import { EMBEDDING_DIMENSION } from './constants';

const FNV_OFFSET = 0x811c9dc5;

/** 32-bit FNV-1a over UTF-16 code units of text[start, end), continuing from `hash`: fast, dependency-free, stable. */
function fnv1a(text: string, start = 0, end = text.length, hash = FNV_OFFSET): number {
  for (let i = start; i < end; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** Whole words weigh more than trigrams: they carry the meaning; trigrams soften inflections. */
const WORD_WEIGHT = 2;
const TRIGRAM_WEIGHT = 1;
// Features are hashed in place (no string per feature): the prefix's hash is the seed.
const WORD_SEED = fnv1a('w:');
const TRIGRAM_SEED = fnv1a('t:');

function addFeature(vector: Float64Array, hash: number, weight: number): void {
  const sign = hash >>> 31 === 1 ? -1 : 1;
  vector[hash % vector.length] += sign * weight;
}

/** Digits kept per component: about float32's precision, as the service sends, and a JSON body a third the size. */
const PRECISION = 1e7;

/** The vector of `text`, `dimensions` long (each model's length: constants.EMBEDDING_DIMENSIONS). */
export function embed(text: string, dimensions = EMBEDDING_DIMENSION): number[] {
  const vector = new Float64Array(dimensions);
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const word of words) {
    addFeature(vector, fnv1a(word, 0, word.length, WORD_SEED), WORD_WEIGHT);
    const padded = `#${word}#`;
    for (let i = 0; i + 3 <= padded.length; i += 1) addFeature(vector, fnv1a(padded, i, i + 3, TRIGRAM_SEED), TRIGRAM_WEIGHT);
  }
  // A text without words still gets a (constant) unit vector: a zero vector would make cosine NaN.
  if (words.length === 0) addFeature(vector, fnv1a('empty'), 1);
  let squares = 0;
  for (const value of vector) squares += value * value;
  const norm = Math.sqrt(squares);
  return Array.from(vector, (value) => Math.round((value / norm) * PRECISION) / PRECISION);
}
