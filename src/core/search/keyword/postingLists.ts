/**
 * The keyword index's compacted postings, packed into bytes: each word's documents in increasing
 * order, each as the gap from the previous one in a variable-length integer (7 bits a byte), the
 * gap's lowest bit telling whether a count byte follows (most words occur once in a chunk, and then
 * none does). About 1.5 bytes a posting on code, where a Uint32Array takes 4.
 */

/** Postings grouped by word and their byte runs: word `w`'s are `bytes[starts[w] .. starts[w + 1])`. */
export interface PostingLists {
  bytes: Uint8Array;
  starts: Uint32Array;
}

export const NO_POSTINGS: PostingLists = { bytes: new Uint8Array(0), starts: new Uint32Array(1) };

/**
 * Packs `postings` (document id × 256 + count, count 1 to 255), those of word `w` at
 * `postings[runs[w] .. runs[w + 1])` in any order; sorts each run in place.
 */
export function packPostings(postings: Uint32Array, runs: Uint32Array): PostingLists {
  const words = runs.length - 1;
  let size = 0;
  for (let w = 0; w < words; w++) {
    const run = postings.subarray(runs[w], runs[w + 1]).sort();
    let previous = 0;
    for (const posting of run) {
      const doc = posting >>> 8;
      size += varintBytes(gapValue(doc - previous, posting & 255)) + ((posting & 255) > 1 ? 1 : 0);
      previous = doc;
    }
  }
  const bytes = new Uint8Array(size);
  const starts = new Uint32Array(words + 1);
  let at = 0;
  for (let w = 0; w < words; w++) {
    starts[w] = at;
    let previous = 0;
    for (let p = runs[w]; p < runs[w + 1]; p++) {
      const doc = postings[p] >>> 8;
      const count = postings[p] & 255;
      for (let value = gapValue(doc - previous, count); ; value = Math.floor(value / 128)) {
        if (value < 128) {
          bytes[at++] = value;
          break;
        }
        bytes[at++] = (value % 128) | 128;
      }
      if (count > 1) bytes[at++] = count;
      previous = doc;
    }
  }
  starts[words] = at;
  return { bytes, starts };
}

/** Calls `visit` with each (document, count) of word `word`, in increasing document order. */
export function forEachPosting(lists: PostingLists, word: number, visit: (doc: number, count: number) => void): void {
  const { bytes, starts } = lists;
  const end = starts[word + 1];
  let doc = 0;
  for (let at = starts[word]; at < end;) {
    let value = 0;
    for (let scale = 1; ; scale *= 128) {
      const byte = bytes[at++];
      value += (byte & 127) * scale;
      if (byte < 128) break;
    }
    doc += Math.floor(value / 2);
    visit(doc, value % 2 === 1 ? bytes[at++] : 1);
  }
}

/** The gap with the count flag as its lowest bit (arithmetic, not bit operators: gaps reach 2^24). */
function gapValue(gap: number, count: number): number {
  return gap * 2 + (count > 1 ? 1 : 0);
}

function varintBytes(value: number): number {
  let bytes = 1;
  while (value >= 128) {
    value = Math.floor(value / 128);
    bytes += 1;
  }
  return bytes;
}
