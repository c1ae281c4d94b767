/**
 * The postings of Okapi BM25 (scored in bm25.ts) over documents given as lists of words (see
 * identifierWords.ts), kept up to date one document at a time and lean in memory: no object per
 * posting or per document.
 *
 * Storage, like a log-structured index with one level:
 * - a compacted part: each word's postings (document and the word's count in it, capped at 255)
 *   packed into bytes, about 1.5 a posting (postingLists.ts);
 * - the documents added since, each a Uint32Array of (word id × 256 + count), scanned whole by a
 *   search; their number is kept small by compacting them into the first part (see `compactIfDue`);
 * - per document its length in words and its state (free, compacted, recent), in typed arrays;
 * - the words themselves only as hashes, in a {@link WordTable} (wordTable.ts).
 * Removing a compacted document only marks it free: a search skips its postings, the next
 * compaction drops them, and its id can be given again at once (its old postings are skipped
 * because the id is then recent, not compacted). Word ids are dense; a compaction drops the words no
 * document has any more. A word's document frequency is counted when a query asks for it, so
 * removals need not know a document's words.
 */

import { noMatches, scoreHits, type KeywordSearch } from './bm25';
import { forEachPosting, NO_POSTINGS, packPostings, type PostingLists } from './postingLists';
import { WordTable, type WordTableArrays } from './wordTable';

/** Postings hold a document id in 24 bits, and counts and word ids share a word the same way. */
const MAX_ID = 2 ** 24;
const COUNT_BITS = 256;
/** Recent documents a search scans whole before it compacts them first: few enough to scan quickly. */
const MIN_RECENT = 64;

const FREE = 0;
const COMPACTED = 1;
const RECENT = 2;

/** A compacted index's state as typed arrays (see {@link KeywordIndex.snapshot}), to save and restore it. */
export interface KeywordIndexSnapshot extends WordTableArrays {
  postingBytes: Uint8Array;
  postingStarts: Uint32Array;
  /** Per document id below their length: words, and state (0 free, 1 held). */
  lengths: Uint32Array;
  states: Uint8Array;
}

export class KeywordIndex {
  private wordIds = new WordTable();
  private wordCount = 0;
  /** Compacted postings; words ≥ `compactedWords` have none. */
  private compacted: PostingLists = NO_POSTINGS;
  private compactedWords = 0;
  /** Documents added since the last compaction: word id × 256 + count, one entry per distinct word. */
  private readonly recent = new Map<number, Uint32Array>();
  private lengths = new Uint32Array(64);
  private states = new Uint8Array(64);
  private nextDoc = 0;
  private readonly freeDocs: number[] = [];
  private documents = 0;
  private totalLength = 0;
  private compactedLive = 0;
  private compactedDead = 0;

  /** Documents held. */
  get size(): number {
    return this.documents;
  }

  /** Bytes of the typed arrays: words, postings, per-document arrays, recent documents. */
  get allocatedBytes(): number {
    let bytes =
      this.wordIds.allocatedBytes + this.compacted.bytes.byteLength + this.compacted.starts.byteLength + this.lengths.byteLength + this.states.byteLength;
    for (const words of this.recent.values()) bytes += words.byteLength;
    return bytes;
  }

  /** Adds a document of `words` (repeats count); returns its id, for {@link remove} and in matches. */
  add(words: readonly string[]): number {
    const counts = new Map<string, number>();
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
    const doc = this.freeDocs.pop() ?? this.newDoc();
    const packed = new Uint32Array(counts.size);
    let i = 0;
    for (const [word, count] of counts) {
      const id = this.wordIds.getOrAdd(word, () => {
        if (this.wordCount >= MAX_ID) throw new Error('KeywordIndex: too many distinct words');
        return this.wordCount++;
      });
      packed[i++] = id * COUNT_BITS + Math.min(count, COUNT_BITS - 1);
    }
    this.recent.set(doc, packed);
    this.states[doc] = RECENT;
    this.lengths[doc] = words.length;
    this.documents += 1;
    this.totalLength += words.length;
    this.compactIfDue(4);
    return doc;
  }

  /** The index's state, compacted first, as views of its arrays (valid until it changes). */
  snapshot(): KeywordIndexSnapshot {
    if (this.recent.size > 0 || this.compactedDead > 0) this.compact();
    return {
      ...this.wordIds.arrays(),
      postingBytes: this.compacted.bytes,
      postingStarts: this.compacted.starts,
      lengths: this.lengths.subarray(0, this.nextDoc),
      states: this.states.subarray(0, this.nextDoc),
    };
  }

  /** An index in the state `snapshot` was taken in; throws when its arrays do not fit together. */
  static restore(snapshot: KeywordIndexSnapshot): KeywordIndex {
    const { postingBytes, postingStarts, lengths, states } = snapshot;
    const words = postingStarts.length - 1;
    if (words < 0 || lengths.length !== states.length || postingStarts[words] !== postingBytes.length || lengths.length >= MAX_ID) {
      throw new Error('KeywordIndex: inconsistent snapshot');
    }
    for (let w = 0; w < words; w++) if (postingStarts[w] > postingStarts[w + 1]) throw new Error('KeywordIndex: inconsistent snapshot');
    const index = new KeywordIndex();
    index.wordIds = WordTable.fromArrays(snapshot, words);
    index.wordCount = words;
    index.compactedWords = words;
    index.compacted = { bytes: postingBytes, starts: postingStarts };
    const capacity = Math.max(64, lengths.length);
    index.lengths = new Uint32Array(capacity);
    index.lengths.set(lengths);
    index.states = new Uint8Array(capacity);
    index.nextDoc = lengths.length;
    // Free ids are given again from the lowest, as a rebuilt index would.
    for (let doc = lengths.length - 1; doc >= 0; doc--) {
      if (states[doc] === COMPACTED) {
        index.states[doc] = COMPACTED;
        index.documents += 1;
        index.compactedLive += 1;
        index.totalLength += lengths[doc];
      } else if (states[doc] === FREE) index.freeDocs.push(doc);
      else throw new Error('KeywordIndex: inconsistent snapshot');
    }
    return index;
  }

  /** Whether document `doc` is held. */
  holds(doc: number): boolean {
    return doc >= 0 && doc < this.nextDoc && this.states[doc] !== FREE;
  }

  /** Removes document `doc`; returns whether it was held. */
  remove(doc: number): boolean {
    const state = this.states[doc];
    if (!(doc >= 0 && doc < this.nextDoc) || state === FREE) return false;
    if (state === RECENT) this.recent.delete(doc);
    else {
      this.compactedLive -= 1;
      this.compactedDead += 1;
    }
    this.states[doc] = FREE;
    this.documents -= 1;
    this.totalLength -= this.lengths[doc];
    this.freeDocs.push(doc);
    return true;
  }

  /**
   * Every document that has at least one of `words`, with its BM25 score for them (each distinct
   * word once) and which of them it has.
   */
  search(words: readonly string[]): KeywordSearch {
    // Recent documents are scanned whole: compact them first when they are many for the index's size.
    this.compactIfDue(16);
    // Word id → the word's place among the query's distinct words (known or not, so that another
    // index searched with the same words numbers them alike).
    const distinct = [...new Set(words)];
    const query = new Map<number, number>();
    distinct.forEach((word, at) => {
      const id = this.wordIds.get(word);
      if (id !== undefined) query.set(id, at);
    });
    if (query.size === 0 || this.documents === 0) return noMatches(this.nextDoc);

    // Every posting of a query word, compacted or recent, read once: (doc, word's place in the
    // query, count); and each word's document frequency, which its idf needs before any score.
    const frequency = new Uint32Array(distinct.length);
    const hits: number[] = [];
    for (const [id, at] of query) {
      this.forCompacted(id, (doc, count) => {
        hits.push(doc, at, count);
        frequency[at] += 1;
      });
    }
    for (const [doc, packed] of this.recent) {
      for (const entry of packed) {
        const at = query.get(Math.floor(entry / COUNT_BITS));
        if (at === undefined) continue;
        hits.push(doc, at, entry % COUNT_BITS);
        frequency[at] += 1;
      }
    }

    return scoreHits(hits, frequency, { documents: this.documents, totalLength: this.totalLength, lengths: this.lengths, idLimit: this.nextDoc });
  }

  /** Calls `visit` for each live compacted posting of word `id`. */
  private forCompacted(id: number, visit: (doc: number, count: number) => void): void {
    if (id >= this.compactedWords) return;
    forEachPosting(this.compacted, id, (doc, count) => {
      if (this.states[doc] === COMPACTED) visit(doc, count);
    });
  }

  private newDoc(): number {
    if (this.nextDoc >= MAX_ID) throw new Error('KeywordIndex: too many documents');
    if (this.nextDoc === this.states.length) {
      const lengths = new Uint32Array(this.nextDoc * 2);
      lengths.set(this.lengths);
      this.lengths = lengths;
      const states = new Uint8Array(this.nextDoc * 2);
      states.set(this.states);
      this.states = states;
    }
    return this.nextDoc++;
  }

  /**
   * Compacts when the recent documents exceed 1/`share` of the compacted ones (so adding n
   * documents costs O(n) compaction work in all), or removed ones outnumber the live.
   */
  private compactIfDue(share: number): void {
    const recentDue = this.recent.size > Math.max(MIN_RECENT, this.compactedLive / share) || (share > 4 && this.recent.size > 0 && this.compactedLive === 0);
    if (recentDue || this.compactedDead > Math.max(MIN_RECENT, this.compactedLive)) this.compact();
  }

  /** Merges the recent documents into the compacted postings, dropping removed documents and unused words. */
  private compact(): void {
    const counts = new Uint32Array(this.wordCount);
    for (let id = 0; id < this.compactedWords; id++) this.forCompacted(id, () => (counts[id] += 1));
    for (const packed of this.recent.values()) for (const entry of packed) counts[Math.floor(entry / COUNT_BITS)] += 1;

    // Words still in use get new dense ids, in the old order.
    const renumber = new Int32Array(this.wordCount).fill(-1);
    let words = 0;
    for (let id = 0; id < this.wordCount; id++) if (counts[id] > 0) renumber[id] = words++;
    this.wordIds.renumber((id) => renumber[id]);

    const starts = new Uint32Array(words + 1);
    for (let id = 0; id < this.wordCount; id++) if (renumber[id] >= 0) starts[renumber[id] + 1] = counts[id];
    for (let w = 0; w < words; w++) starts[w + 1] += starts[w];
    // Unpacked first (4 bytes a posting, for the time of the compaction), then packed word by word.
    const postings = new Uint32Array(starts[words]);
    const fill = starts.slice(0, words);
    for (let id = 0; id < this.compactedWords; id++) {
      this.forCompacted(id, (doc, count) => (postings[fill[renumber[id]]++] = doc * COUNT_BITS + count));
    }
    for (const [doc, packed] of this.recent) {
      for (const entry of packed) postings[fill[renumber[Math.floor(entry / COUNT_BITS)]]++] = doc * COUNT_BITS + (entry % COUNT_BITS);
      this.states[doc] = COMPACTED;
    }

    this.compactedLive += this.recent.size;
    this.compactedDead = 0;
    this.recent.clear();
    this.compacted = packPostings(postings, starts);
    this.wordCount = words;
    this.compactedWords = words;
  }
}
