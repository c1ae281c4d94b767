/**
 * Exact nearest-neighbour search by cosine similarity over fixed-length vectors (the embeddings
 * of workspace chunks), held in memory.
 *
 * Storage: every vector is normalised once, on add, and written into Float32Array pages of
 * {@link DEFAULT_VECTORS_PER_PAGE} vectors each, one after another; slot `s` lives in page
 * `s / vectorsPerPage`. There are no per-vector objects: besides the pages there is only the slot
 * → id array and the id → slot map. Removing swaps the last vector into the hole, so the used
 * slots stay dense and removal is O(dimensions).
 *
 * Search: the cosine of two unit vectors is their dot product, so a search is one pass over the
 * pages, four stored vectors at a time against the (normalised) query with eight independent
 * accumulators, while a bounded binary min-heap keeps the best k. Accumulation is in double
 * precision; scores are clamped to [-1, 1]. Equal scores are ordered by id (ascending, by UTF-16
 * code units), so results do not depend on insertion or removal order.
 *
 * Optionally (`{ quantized: true }`) the index also keeps int8 codes of every vector (+1 byte per
 * dimension, +25 % memory) and {@link VectorIndex.searchQuantized} scans those with a WebAssembly
 * SIMD kernel, then re-ranks the best candidates exactly. It reads a quarter of the memory the
 * float scan reads; see test/bench/vectorIndex.ts for what that buys and its recall.
 */
import { Int8Scanner, int8Stride, quantizeInt8, queryCodeLimit } from './vectorInt8';

/** One search result: the id given to {@link VectorIndex.add} and its cosine similarity. */
export interface VectorMatch {
  id: string;
  /** Cosine similarity to the query, in [-1, 1]. */
  score: number;
}

export interface VectorIndexOptions {
  /** Vectors per storage page; default {@link DEFAULT_VECTORS_PER_PAGE}. */
  vectorsPerPage?: number;
  /** Also keep int8 codes of every vector for {@link VectorIndex.searchQuantized}; default false. */
  quantized?: boolean;
}

export interface QuantizedSearchOptions {
  /**
   * How many of the best vectors by the int8 scan are re-ranked by their exact score; default
   * `max(8 × k, 64)`. More candidates: better recall, slightly slower.
   */
  candidates?: number;
}

/** Vectors per page unless {@link VectorIndexOptions.vectorsPerPage} says otherwise. */
export const DEFAULT_VECTORS_PER_PAGE = 1024;

/** In-memory exact cosine-similarity index over vectors of a fixed number of dimensions. */
export class VectorIndex {
  /** The length every vector and query must have. */
  readonly dimensions: number;
  /** Vectors per storage page. */
  readonly vectorsPerPage: number;
  /** Whether int8 codes are kept, so {@link searchQuantized} is available. */
  readonly quantized: boolean;

  /** Unit vectors, `vectorsPerPage × dimensions` floats per page. */
  private readonly pages: Float32Array[] = [];
  /** With `quantized`: int8 codes, `vectorsPerPage × codeStride` bytes per page (zero padded). */
  private readonly codePages: Int8Array[] = [];
  /** With `quantized`: per vector, the factor from its codes back to its components. */
  private readonly scalePages: Float32Array[] = [];
  private readonly codeStride: number;
  /** The id in each used slot; its length is the size. */
  private readonly ids: string[] = [];
  private readonly slots = new Map<string, number>();
  /** The normalised query of the running search. */
  private readonly unitQuery: Float32Array;
  private scanner: Int8Scanner | undefined;

  /**
   * @param dimensions the length of every vector (a positive integer).
   * @param options page size and whether to keep int8 codes for {@link searchQuantized}.
   */
  constructor(dimensions: number, options: VectorIndexOptions = {}) {
    if (!Number.isInteger(dimensions) || dimensions <= 0) {
      throw new Error(`VectorIndex: dimensions must be a positive integer, got ${dimensions}`);
    }
    const vectorsPerPage = options.vectorsPerPage ?? DEFAULT_VECTORS_PER_PAGE;
    if (!Number.isInteger(vectorsPerPage) || vectorsPerPage <= 0) {
      throw new Error(`VectorIndex: vectorsPerPage must be a positive integer, got ${vectorsPerPage}`);
    }
    this.dimensions = dimensions;
    this.vectorsPerPage = vectorsPerPage;
    this.quantized = options.quantized === true;
    this.codeStride = int8Stride(dimensions);
    this.unitQuery = new Float32Array(dimensions);
  }

  /** How many vectors the index holds. */
  get size(): number {
    return this.ids.length;
  }

  /** Bytes of the pages allocated now (vectors, and codes and scales if `quantized`); not the ids. */
  get allocatedBytes(): number {
    let bytes = 0;
    for (const page of this.pages) bytes += page.byteLength;
    for (const page of this.codePages) bytes += page.byteLength;
    for (const page of this.scalePages) bytes += page.byteLength;
    return bytes;
  }

  /** Whether a vector is stored under `id`. */
  has(id: string): boolean {
    return this.slots.has(id);
  }

  /**
   * Stores `vector` under `id`, replacing the vector already stored under it, if any.
   * The vector is copied and normalised; a zero vector is kept and scores 0 against any query.
   *
   * @throws Error if the vector's length is not {@link dimensions} or a component is not a finite
   *   number (the index is then unchanged).
   */
  add(id: string, vector: ArrayLike<number>): void {
    const norm = this.normOf(vector, 'vector');
    let slot = this.slots.get(id);
    if (slot === undefined) {
      slot = this.ids.length;
      if (slot === this.pages.length * this.vectorsPerPage) this.addPage();
      this.ids.push(id);
      this.slots.set(id, slot);
    }
    const d = this.dimensions;
    const page = Math.floor(slot / this.vectorsPerPage);
    const index = slot - page * this.vectorsPerPage;
    const floats = this.pages[page];
    const at = index * d;
    if (norm === 0) {
      floats.fill(0, at, at + d);
    } else {
      for (let i = 0; i < d; i++) floats[at + i] = vector[i] / norm;
    }
    if (this.quantized) {
      this.scalePages[page][index] = quantizeInt8(floats, at, d, this.codePages[page], index * this.codeStride);
    }
  }

  /**
   * Removes the vector stored under `id`. The last vector moves into its slot (O(dimensions));
   * pages beyond one spare are released.
   *
   * @returns whether there was one.
   */
  remove(id: string): boolean {
    const slot = this.slots.get(id);
    if (slot === undefined) return false;
    const last = this.ids.length - 1;
    if (slot !== last) {
      this.copySlot(last, slot);
      const moved = this.ids[last];
      this.ids[slot] = moved;
      this.slots.set(moved, slot);
    }
    this.ids.pop();
    this.slots.delete(id);
    const needed = Math.ceil(this.ids.length / this.vectorsPerPage);
    while (this.pages.length > needed + 1) {
      this.pages.pop();
      this.codePages.pop();
      this.scalePages.pop();
    }
    return true;
  }

  /**
   * The `k` stored vectors most similar to `query` by cosine similarity, best first; exact (every
   * vector is compared). Equal scores are ordered by id.
   *
   * @returns at most `k` matches; none if `k` < 1, the index is empty or `query` is a zero vector
   *   (it has no direction to compare).
   * @throws Error if the query's length is not {@link dimensions} or a component is not finite.
   */
  search(query: ArrayLike<number>, k: number): VectorMatch[] {
    const limit = this.prepareQuery(query, k);
    if (limit === 0) return [];
    const top = new TopK(limit, this.ids);
    const size = this.ids.length;
    for (let page = 0, slot = 0; slot < size; page++) {
      const count = Math.min(this.vectorsPerPage, size - slot);
      scanPage(this.pages[page], count, this.dimensions, this.unitQuery, slot, top);
      slot += count;
    }
    return this.matches(top);
  }

  /**
   * Like {@link search}, but ranks all vectors by their int8 codes first and computes the exact
   * score only for the best `options.candidates` of them: much less memory to read, and a vector
   * whose approximate rank falls outside the candidates is missed. Scores are exact, and equal to
   * what {@link search} reports for the same vector. Needs an index made with `{ quantized: true }`.
   *
   * @throws Error if the index is not quantized, or as {@link search} does.
   */
  searchQuantized(query: ArrayLike<number>, k: number, options: QuantizedSearchOptions = {}): VectorMatch[] {
    if (!this.quantized) throw new Error('VectorIndex: searchQuantized needs an index created with { quantized: true }');
    const limit = this.prepareQuery(query, k);
    if (limit === 0) return [];
    const d = this.dimensions;
    const size = this.ids.length;
    const unit = this.unitQuery;
    const scanner = (this.scanner ??= new Int8Scanner(this.codeStride));
    let max = 0;
    for (let i = 0; i < d; i++) max = Math.max(max, Math.abs(unit[i]));
    const toCode = queryCodeLimit(this.codeStride) / max;
    for (let i = 0; i < d; i++) scanner.query[i] = Math.round(unit[i] * toCode);

    const wanted = Math.floor(options.candidates ?? Math.max(8 * limit, 64));
    const candidates = new TopK(Math.min(size, Math.max(limit, Number.isNaN(wanted) ? 0 : wanted)), this.ids);
    let threshold = -Infinity;
    for (let page = 0, slot = 0; slot < size; page++) {
      const count = Math.min(this.vectorsPerPage, size - slot);
      const codes = this.codePages[page];
      const scales = this.scalePages[page];
      for (let start = 0; start < count; start += scanner.chunkVectors) {
        const n = Math.min(scanner.chunkVectors, count - start);
        const dots = scanner.dots(codes, start, n);
        for (let j = 0; j < n; j++) {
          const approximate = dots[j] * scales[start + j];
          if (approximate >= threshold) threshold = candidates.offer(approximate, slot + start + j);
        }
      }
      slot += count;
    }

    const top = new TopK(limit, this.ids);
    for (let c = 0; c < candidates.count; c++) {
      const slot = candidates.slotAt(c);
      const page = Math.floor(slot / this.vectorsPerPage);
      top.offer(dotOne(this.pages[page], (slot - page * this.vectorsPerPage) * d, unit, d), slot);
    }
    return this.matches(top);
  }

  /**
   * Checks the query, writes its unit vector to `unitQuery` and returns how many results to give
   * (0: none).
   */
  private prepareQuery(query: ArrayLike<number>, k: number): number {
    const norm = this.normOf(query, 'query');
    const limit = Math.min(Math.floor(k), this.ids.length);
    if (!(limit > 0) || norm === 0) return 0;
    for (let i = 0; i < this.dimensions; i++) this.unitQuery[i] = query[i] / norm;
    return limit;
  }

  private matches(top: TopK): VectorMatch[] {
    return top.drain().map(({ slot, score }) => ({ id: this.ids[slot], score }));
  }

  /** The Euclidean norm of `vector`, after checking its length and components. */
  private normOf(vector: ArrayLike<number>, what: 'vector' | 'query'): number {
    const d = this.dimensions;
    if (vector.length !== d) {
      throw new Error(`VectorIndex: the ${what} has ${vector.length} dimensions, the index has ${d}`);
    }
    let sum = 0;
    for (let i = 0; i < d; i++) sum += vector[i] * vector[i];
    if (Number.isFinite(sum)) return Math.sqrt(sum);
    // NaN, ±Infinity, or finite components whose squares overflow (only possible in a number[]).
    let max = 0;
    for (let i = 0; i < d; i++) {
      const x = vector[i];
      if (typeof x !== 'number' || !Number.isFinite(x)) {
        throw new Error(`VectorIndex: the ${what}'s component ${i} is ${String(x)}, not a finite number`);
      }
      max = Math.max(max, Math.abs(x));
    }
    let scaled = 0;
    for (let i = 0; i < d; i++) scaled += (vector[i] / max) * (vector[i] / max);
    return max * Math.sqrt(scaled);
  }

  private addPage(): void {
    this.pages.push(new Float32Array(this.vectorsPerPage * this.dimensions));
    if (this.quantized) {
      this.codePages.push(new Int8Array(this.vectorsPerPage * this.codeStride));
      this.scalePages.push(new Float32Array(this.vectorsPerPage));
    }
  }

  private copySlot(from: number, to: number): void {
    const perPage = this.vectorsPerPage;
    const fromPage = Math.floor(from / perPage);
    const fromIndex = from - fromPage * perPage;
    const toPage = Math.floor(to / perPage);
    const toIndex = to - toPage * perPage;
    const d = this.dimensions;
    this.pages[toPage].set(this.pages[fromPage].subarray(fromIndex * d, fromIndex * d + d), toIndex * d);
    if (this.quantized) {
      const stride = this.codeStride;
      this.codePages[toPage].set(this.codePages[fromPage].subarray(fromIndex * stride, fromIndex * stride + stride), toIndex * stride);
      this.scalePages[toPage][toIndex] = this.scalePages[fromPage][fromIndex];
    }
  }
}

/** `x` limited to [-1, 1] (rounding can take the dot product of unit vectors just past them). */
function clamp(x: number): number {
  return x > 1 ? 1 : x < -1 ? -1 : x;
}

/**
 * Offers the first `count` vectors of `page` (slots `firstSlot`…) to `top`, scored against the
 * unit vector `q`. Four vectors at a time share each load of the query; every vector has two
 * accumulators (even and odd components), summed the same way as in {@link dotOne}, so a vector's
 * score does not depend on where it is stored.
 */
function scanPage(page: Float32Array, count: number, d: number, q: Float32Array, firstSlot: number, top: TopK): void {
  const even = d - (d & 1);
  let threshold = top.threshold();
  let v = 0;
  for (; v + 4 <= count; v += 4) {
    const b0 = v * d;
    const b1 = b0 + d;
    const b2 = b1 + d;
    const b3 = b2 + d;
    let a0 = 0;
    let a1 = 0;
    let c0 = 0;
    let c1 = 0;
    let e0 = 0;
    let e1 = 0;
    let f0 = 0;
    let f1 = 0;
    for (let i = 0; i < even; i += 2) {
      const q0 = q[i];
      const q1 = q[i + 1];
      a0 += page[b0 + i] * q0;
      a1 += page[b0 + i + 1] * q1;
      c0 += page[b1 + i] * q0;
      c1 += page[b1 + i + 1] * q1;
      e0 += page[b2 + i] * q0;
      e1 += page[b2 + i + 1] * q1;
      f0 += page[b3 + i] * q0;
      f1 += page[b3 + i + 1] * q1;
    }
    if (even !== d) {
      const q0 = q[even];
      a0 += page[b0 + even] * q0;
      c0 += page[b1 + even] * q0;
      e0 += page[b2 + even] * q0;
      f0 += page[b3 + even] * q0;
    }
    const s0 = clamp(a0 + a1);
    const s1 = clamp(c0 + c1);
    const s2 = clamp(e0 + e1);
    const s3 = clamp(f0 + f1);
    const slot = firstSlot + v;
    if (s0 >= threshold) threshold = top.offer(s0, slot);
    if (s1 >= threshold) threshold = top.offer(s1, slot + 1);
    if (s2 >= threshold) threshold = top.offer(s2, slot + 2);
    if (s3 >= threshold) threshold = top.offer(s3, slot + 3);
  }
  for (; v < count; v++) {
    const score = dotOne(page, v * d, q, d);
    if (score >= threshold) threshold = top.offer(score, firstSlot + v);
  }
}

/** The score of the vector at `page[at …]` against `q`, summed exactly as {@link scanPage} does. */
function dotOne(page: Float32Array, at: number, q: Float32Array, d: number): number {
  const even = d - (d & 1);
  let a0 = 0;
  let a1 = 0;
  for (let i = 0; i < even; i += 2) {
    a0 += page[at + i] * q[i];
    a1 += page[at + i + 1] * q[i + 1];
  }
  if (even !== d) a0 += page[at + even] * q[even];
  return clamp(a0 + a1);
}

/**
 * The best `capacity` (score, slot) pairs offered so far: a binary min-heap whose root is the
 * worst kept pair. Lower scores are worse; of equal scores, the greater id is worse.
 */
class TopK {
  private readonly scores: Float64Array;
  private readonly slots: Int32Array;
  count = 0;

  constructor(
    private readonly capacity: number,
    private readonly ids: readonly string[],
  ) {
    this.scores = new Float64Array(capacity);
    this.slots = new Int32Array(capacity);
  }

  /** Offers scoring below this are certainly rejected (while not full: -Infinity). */
  threshold(): number {
    return this.count < this.capacity ? -Infinity : this.scores[0];
  }

  /** The slot of the `index`th kept pair, in heap order. */
  slotAt(index: number): number {
    return this.slots[index];
  }

  /** Keeps (score, slot) if it is among the best so far; returns the new {@link threshold}. */
  offer(score: number, slot: number): number {
    const scores = this.scores;
    const slots = this.slots;
    if (this.count < this.capacity) {
      let i = this.count++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.worse(score, slot, scores[parent], slots[parent])) break;
        scores[i] = scores[parent];
        slots[i] = slots[parent];
        i = parent;
      }
      scores[i] = score;
      slots[i] = slot;
    } else if (this.worse(scores[0], slots[0], score, slot)) {
      this.siftDown(score, slot, this.count);
    }
    return this.threshold();
  }

  /** Empties the heap and returns its pairs, best first. */
  drain(): { slot: number; score: number }[] {
    const sorted = new Array<{ slot: number; score: number }>(this.count);
    for (let rank = this.count - 1; rank >= 0; rank--) {
      sorted[rank] = { slot: this.slots[0], score: this.scores[0] };
      const last = --this.count;
      if (last > 0) this.siftDown(this.scores[last], this.slots[last], last);
    }
    return sorted;
  }

  /** Places (score, slot) at the root and moves it down within the first `n` entries. */
  private siftDown(score: number, slot: number, n: number): void {
    const scores = this.scores;
    const slots = this.slots;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && this.worse(scores[child + 1], slots[child + 1], scores[child], slots[child])) child++;
      if (!this.worse(scores[child], slots[child], score, slot)) break;
      scores[i] = scores[child];
      slots[i] = slots[child];
      i = child;
    }
    scores[i] = score;
    slots[i] = slot;
  }

  /** Whether (score, slot) ranks below (otherScore, otherSlot). */
  private worse(score: number, slot: number, otherScore: number, otherSlot: number): boolean {
    return score !== otherScore ? score < otherScore : this.ids[slot] > this.ids[otherSlot];
  }
}
