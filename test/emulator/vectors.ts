// Deterministic embedding vectors: hashed features (word unigrams and character trigrams, FNV-1a
// into buckets with a ±1 sign from the hash), L2-normalised. Texts that share words land close
// together, unrelated texts near orthogonal: enough for retrieval tests to have a right answer.
import { EMBEDDING_DIMENSION } from './constants';

/** 32-bit FNV-1a over UTF-16 code units: fast, dependency-free and stable across runs. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** Whole words weigh more than trigrams: they carry the meaning; trigrams soften inflections. */
const WORD_WEIGHT = 2;
const TRIGRAM_WEIGHT = 1;

function addFeature(vector: Float64Array, feature: string, weight: number): void {
  const hash = fnv1a(feature);
  const sign = (hash >>> 31) === 1 ? -1 : 1;
  vector[hash % EMBEDDING_DIMENSION] += sign * weight;
}

export function embed(text: string): number[] {
  const vector = new Float64Array(EMBEDDING_DIMENSION);
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const word of words) {
    addFeature(vector, `w:${word}`, WORD_WEIGHT);
    const padded = `#${word}#`;
    for (let i = 0; i + 3 <= padded.length; i += 1) addFeature(vector, `t:${padded.slice(i, i + 3)}`, TRIGRAM_WEIGHT);
  }
  // A text without words still gets a (constant) unit vector: a zero vector would make cosine NaN.
  if (words.length === 0) addFeature(vector, 'empty', 1);
  const norm = Math.hypot(...vector);
  return Array.from(vector, (value) => value / norm);
}
