/**
 * Word → id for the keyword index, without keeping the words: each word is known by two 32-bit
 * hashes of it (64 bits), stored in an open-addressing table of typed arrays, 12 bytes a slot, a
 * third to {@link MAX_LOAD} full (about 24 bytes a word). A Map of strings costs about 70 bytes a word (the string and the entry), and a
 * workspace has a few new words per chunk. Two words are taken for one only if both hashes agree:
 * among 200,000 words the odds that any two do are about 1 in 10^9.
 */

const EMPTY = -1;
const MIN_CAPACITY = 64;
/** Linear probing stays short up to about this load; the table doubles past it. */
const MAX_LOAD = 0.7;

/** A table's slots, to save and restore it: for each, the word's two hashes and its id (-1: empty). */
export interface WordTableArrays {
  hashFirst: Uint32Array;
  hashSecond: Uint32Array;
  wordIds: Int32Array;
}

export class WordTable {
  private first: Uint32Array = new Uint32Array(MIN_CAPACITY);
  private second: Uint32Array = new Uint32Array(MIN_CAPACITY);
  private ids: Int32Array = new Int32Array(MIN_CAPACITY).fill(EMPTY);
  private count = 0;

  /** Bytes of the table's arrays. */
  get allocatedBytes(): number {
    return this.first.byteLength + this.second.byteLength + this.ids.byteLength;
  }

  /** The table's slots as views of its arrays (valid until it changes). */
  arrays(): WordTableArrays {
    return { hashFirst: this.first, hashSecond: this.second, wordIds: this.ids };
  }

  /**
   * A table of the slots `arrays` (taken with {@link arrays}), which must hold ids below `words`;
   * throws when they do not fit together.
   */
  static fromArrays({ hashFirst, hashSecond, wordIds }: WordTableArrays, words: number): WordTable {
    const capacity = wordIds.length;
    if (capacity < MIN_CAPACITY || (capacity & (capacity - 1)) !== 0 || hashFirst.length !== capacity || hashSecond.length !== capacity) {
      throw new Error('WordTable: inconsistent slots');
    }
    const table = new WordTable();
    table.first = hashFirst;
    table.second = hashSecond;
    table.ids = wordIds;
    for (const id of wordIds) {
      if (id === EMPTY) continue;
      if (!(id >= 0 && id < words)) throw new Error('WordTable: inconsistent slots');
      table.count += 1;
    }
    if (table.count + 1 > MAX_LOAD * capacity) throw new Error('WordTable: inconsistent slots');
    return table;
  }

  /** The id of `word`, or undefined when it has none. */
  get(word: string): number | undefined {
    const slot = this.slotOf(hashA(word), hashB(word));
    return this.ids[slot] === EMPTY ? undefined : this.ids[slot];
  }

  /** The id of `word`, given `next()` when it has none. */
  getOrAdd(word: string, next: () => number): number {
    const a = hashA(word);
    const b = hashB(word);
    let slot = this.slotOf(a, b);
    if (this.ids[slot] !== EMPTY) return this.ids[slot];
    if (this.count + 1 > MAX_LOAD * this.ids.length) {
      this.rebuild(this.ids.length * 2, (id) => id);
      slot = this.slotOf(a, b);
    }
    const id = next();
    this.put(slot, a, b, id);
    return id;
  }

  /** Gives every word the id `renumber(id)`, and forgets those for which it is negative. */
  renumber(renumber: (id: number) => number): void {
    let kept = 0;
    for (let slot = 0; slot < this.ids.length; slot++) if (this.ids[slot] !== EMPTY && renumber(this.ids[slot]) >= 0) kept += 1;
    let capacity = MIN_CAPACITY;
    while (kept + 1 > MAX_LOAD * capacity) capacity *= 2;
    this.rebuild(capacity, renumber);
  }

  /** The slot that holds the word of hashes (a, b), or the empty slot where it would go. */
  private slotOf(a: number, b: number): number {
    const mask = this.ids.length - 1;
    let slot = a & mask;
    while (this.ids[slot] !== EMPTY && (this.first[slot] !== a || this.second[slot] !== b)) slot = (slot + 1) & mask;
    return slot;
  }

  private put(slot: number, a: number, b: number, id: number): void {
    this.first[slot] = a;
    this.second[slot] = b;
    this.ids[slot] = id;
    this.count += 1;
  }

  private rebuild(capacity: number, renumber: (id: number) => number): void {
    const { first, second, ids } = this;
    this.first = new Uint32Array(capacity);
    this.second = new Uint32Array(capacity);
    this.ids = new Int32Array(capacity).fill(EMPTY);
    this.count = 0;
    for (let slot = 0; slot < ids.length; slot++) {
      if (ids[slot] === EMPTY) continue;
      const id = renumber(ids[slot]);
      if (id >= 0) this.put(this.slotOf(first[slot], second[slot]), first[slot], second[slot], id);
    }
  }
}

/** 32-bit FNV-1a over the UTF-16 code units. */
function hashA(word: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** A second, independent 32-bit hash (MurmurHash3's mixing per code unit and its finaliser). */
function hashB(word: string): number {
  let hash = 0x9747b28c ^ word.length;
  for (let i = 0; i < word.length; i++) {
    let k = Math.imul(word.charCodeAt(i), 0xcc9e2d51);
    k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
    hash ^= k;
    hash = Math.imul((hash << 13) | (hash >>> 19), 5) + 0xe6546b64;
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}
