/**
 * Exact nearest-neighbour search by cosine similarity over fixed-length vectors (the embeddings
 * of workspace chunks), held in memory at a half or a quarter of the size of their floats.
 *
 * Storage: every vector is normalised once, on add. Its float32 components, rounded, are written
 * into pages of {@link DEFAULT_VECTORS_PER_PAGE} vectors each, one after another; slot `s` lives
 * in page `s / vectorsPerPage`. Rounded to 8 significant bits (bfloat16, their high 16 bits: see
 * vectorPage.ts) while the index is small; to int8 codes times a scale per vector (see
 * vectorPageInt8.ts and vectorInt8.ts) once it grows past {@link defaultInt8From} (see vectorPages.ts
 * for why there). The float32 row itself is kept where it is whole anyway: the embedding cache's
 * vectors file once saved there (read back in place, a few rows per search), memory until then
 * (see vectorRows.ts). There are no per-vector objects besides those rows in memory: besides the
 * pages there is only the slot → id array and the id → slot map. Removing swaps the last vector
 * into the hole, so the used slots stay dense and removal is O(dimensions).
 *
 * Search: the cosine of two unit vectors is their dot product. A first pass computes every stored
 * vector's dot product with the (normalised) query from the rounded values alone, a half or a
 * quarter of the bytes of the floats; each is within a proven bound of the exact one, so only the
 * vectors that could still reach the best k (usually a few more than k) get their exact float32
 * score, from their float32 row, and a bounded binary min-heap keeps the best k. The results are
 * exactly those of scoring every vector in float32, whichever the rounding. The dot products are
 * computed by WebAssembly SIMD kernels in place in the pages, which live in WebAssembly memories:
 * the scan is then bound by memory bandwidth, where a plain JavaScript loop is bound by
 * converting and adding one value at a time (see test/bench/vectorIndex.ts). Without SIMD, plain
 * loops do the same. Scores are clamped to [-1, 1]. Equal scores are ordered by id (ascending, by
 * UTF-16 code units), so results do not depend on insertion or removal order.
 *
 * This file is the façade; storage is in vectorPages.ts, vectorPage.ts and vectorPageInt8.ts, the
 * float32 rows in vectorRows.ts and vectorRowFile.ts, the kernels in vectorSimd.ts (and their plain
 * twins in vectorKernels.ts), the top-k heap in vectorTopK.ts and input checks in vectorNorm.ts.
 */
import { checkedNorm } from './vectorNorm';
import { fittedCapacity, floatStride } from './vectorPage';
import { defaultInt8From, type Precision, VectorPages } from './vectorPages';
import { TopK } from './vectorTopK';

/** One search result: the id given to {@link VectorIndex.add} and its cosine similarity. */
export interface VectorMatch {
  id: string;
  /** Cosine similarity to the query, in [-1, 1]. */
  score: number;
}

export interface VectorIndexOptions {
  /** Vectors per storage page; by default {@link DEFAULT_VECTORS_PER_PAGE}, or as many more as the memory a page takes anyway holds. */
  vectorsPerPage?: number;
  /** `false` uses the plain loops even where WebAssembly SIMD is available (tests compare them). */
  simd?: boolean;
  /**
   * The size at which the pages turn from bfloat16 to int8 (and stay so; see vectorPages.ts): 0
   * for int8 from the start, Infinity for bfloat16 for good (tests and benchmarks compare them).
   * By default {@link defaultInt8From}: 32,769 vectors of 1,024 dimensions.
   */
  int8From?: number;
}

/** `x` limited to [-1, 1] (rounding can take the dot product of unit vectors just past them). */
function clamp(x: number): number {
  return x > 1 ? 1 : x < -1 ? -1 : x;
}

/** How far from 1 the norm of a vector given to {@link VectorIndex.addUnit} may be for it to be stored as it is. */
const UNIT_TOLERANCE = 2 ** -20;

/** Vectors per page unless {@link VectorIndexOptions.vectorsPerPage} says otherwise. */
export const DEFAULT_VECTORS_PER_PAGE = 1024;

/** In-memory exact cosine-similarity index over vectors of a fixed number of dimensions. */
export class VectorIndex {
  /** The length every vector and query must have. */
  readonly dimensions: number;
  /** Vectors per storage page. */
  readonly vectorsPerPage: number;

  private readonly store: VectorPages;
  /** Vectors the last search scored exactly (see {@link lastExactScores}). */
  private exactScores = 0;
  /** The normalised query of the running search, reused so a search allocates no query copy. */
  private readonly unitQuery: Float32Array;

  /**
   * @param dimensions the length of every vector (a positive integer).
   * @param options page size, and whether to use the plain loops.
   */
  constructor(dimensions: number, options: VectorIndexOptions = {}) {
    if (!Number.isInteger(dimensions) || dimensions <= 0) {
      throw new Error(`VectorIndex: dimensions must be a positive integer, got ${dimensions}`);
    }
    const vectorsPerPage = options.vectorsPerPage ?? fittedCapacity(dimensions, DEFAULT_VECTORS_PER_PAGE);
    if (!Number.isInteger(vectorsPerPage) || vectorsPerPage <= 0) {
      throw new Error(`VectorIndex: vectorsPerPage must be a positive integer, got ${vectorsPerPage}`);
    }
    this.dimensions = dimensions;
    this.vectorsPerPage = vectorsPerPage;
    const int8From = options.int8From ?? defaultInt8From(dimensions);
    if (!(int8From >= 0)) throw new Error(`VectorIndex: int8From must be at least 0, got ${int8From}`);
    this.store = new VectorPages(dimensions, vectorsPerPage, options.simd, int8From);
    this.unitQuery = new Float32Array(floatStride(dimensions));
  }

  /** How many vectors the index holds. */
  get size(): number {
    return this.store.size;
  }

  /** Bytes of the pages allocated now; not the ids, nor the float32 rows kept in memory. */
  get allocatedBytes(): number {
    return this.store.allocatedBytes;
  }

  /** How many vectors the last search scored exactly, from their float32 rows: those its first pass could not rule out. */
  get lastExactScores(): number {
    return this.exactScores;
  }

  /** How the pages round the vectors now: bfloat16, or int8 codes times a scale per vector. */
  get precision(): Precision {
    return this.store.kind;
  }

  /** How many vectors keep their float32 row in memory (not saved to the vectors file yet, see {@link rowsSaved}). */
  get rowsInMemory(): number {
    return this.store.exact.inMemoryCount;
  }

  /** How many exact scores or reads had to use a vector's rounded values, its row in the file not being its own (the file was replaced or cut). */
  get inexactReads(): number {
    return this.store.exact.inexactReads;
  }

  /**
   * Stores `vector` under `id`, replacing the vector already stored under it, if any.
   * The vector is copied and normalised; a zero vector is kept and scores 0 against any query.
   *
   * @throws Error if the vector's length is not {@link dimensions} or a component is not a finite
   *   number (the index is then unchanged).
   */
  add(id: string, vector: ArrayLike<number>): void {
    // Checked before the store is touched, so a bad vector leaves the index unchanged.
    const norm = checkedNorm(vector, this.dimensions, 'vector');
    this.store.put(id, vector, norm);
  }

  /**
   * Stores `vector`, already of unit length (as {@link readVector} gave it, e.g. saved to a file and
   * read back), under `id` as it is: bit for bit, where {@link add} would divide it by a norm that
   * rounding put a hair off 1. A vector whose norm is not within 2^-20 of 1 (nor 0) is normalised.
   *
   * @throws Error as {@link add}.
   */
  addUnit(id: string, vector: ArrayLike<number>): void {
    const norm = checkedNorm(vector, this.dimensions, 'vector');
    this.store.put(id, vector, norm === 0 || Math.abs(norm - 1) > UNIT_TOLERANCE ? norm : 1);
  }

  /**
   * {@link addUnit}, for a vector read from row `row` of the vectors file at `path` (as the
   * embedding cache loads it): stored as it is, only its rounded values stay in memory and exact
   * scores read the row back from the file. A vector that must be normalised is kept whole in
   * memory instead (the file's row is not what is stored).
   *
   * @throws Error as {@link add}.
   */
  addFromFile(id: string, vector: Float32Array, path: string, row: number): void {
    const norm = checkedNorm(vector, this.dimensions, 'vector');
    if (norm === 0 || Math.abs(norm - 1) > UNIT_TOLERANCE) return this.store.put(id, vector, norm);
    this.store.exact.useFile(path);
    this.store.putRow(id, vector, row);
  }

  /** The ids of the vectors whose float32 row is kept in memory (see {@link rowsSaved}). */
  idsInMemory(): string[] {
    return this.store.exact.inMemoryIds();
  }

  /**
   * The vectors file at `path` now holds the unit vectors of `keys` from row `firstRow` on, row
   * firstRow + i that of `keys[i]` (a save has committed them): exact scores read them from there,
   * and the rows kept in memory for them are let go once checked to be the same, bit for bit. Every
   * row read from the file is read from this one from now on.
   */
  rowsSaved(path: string, keys: readonly string[], firstRow = 0): void {
    this.store.rowsSaved(path, keys, firstRow);
  }

  /**
   * Writes the unit vector stored under `id` to `target` (at least {@link dimensions} floats long).
   *
   * @returns whether there was one.
   */
  readVector(id: string, target: Float32Array): boolean {
    return this.store.read(id, target);
  }

  /** Where `id` is in {@link ids}, or undefined when it is not stored. */
  position(id: string): number | undefined {
    return this.store.slotOf(id);
  }

  /** The ids of the stored vectors, in storage order (which a removal changes: see {@link remove}). Do not modify. */
  get ids(): readonly string[] {
    return this.store.ids;
  }

  /**
   * Removes the vector stored under `id`. The last vector moves into its slot (O(dimensions));
   * pages beyond one spare are released.
   *
   * @returns whether there was one.
   */
  remove(id: string): boolean {
    return this.store.remove(id);
  }

  /** Whether a vector is stored under `id`. */
  has(id: string): boolean {
    return this.store.has(id);
  }

  /**
   * The `k` stored vectors most similar to `query` by cosine similarity, best first; exact (the
   * same results as scoring every vector in float32: the first pass leaves out only vectors that
   * cannot rank). Equal scores are ordered by id. With `accept`, only the ids it accepts count
   * (asked only of vectors that score high enough to rank).
   *
   * @returns at most `k` matches; none if `k` < 1, the index is empty or `query` is a zero vector
   *   (it has no direction to compare).
   * @throws Error if the query's length is not {@link dimensions} or a component is not finite.
   */
  search(query: ArrayLike<number>, k: number, accept?: (id: string) => boolean): VectorMatch[] {
    const limit = this.prepareQuery(query, k);
    this.exactScores = 0;
    if (limit === 0) return [];
    const store = this.store;
    store.loadQuery(this.unitQuery);
    const size = store.size;
    const perPage = this.vectorsPerPage;
    const ids = store.ids;

    // First pass: every vector's score from its rounded values, each within its bound of the exact.
    // The k-th best lower bound `kth`: k vectors score at least that exactly.
    const lower = new TopK(limit, store.ids);
    let threshold = lower.threshold();
    for (let page = 0, slot = 0; slot < size; page++, slot += perPage) {
      const count = Math.min(perPage, size - slot);
      const source = store.pages[page];
      const dots = source.firstPass(count);
      const bounds = source.bounds;
      for (let j = 0; j < count; j++) {
        const atLeast = dots[j] - bounds[j];
        if (atLeast >= threshold && (!accept || accept(ids[slot + j]))) threshold = lower.offer(atLeast, slot + j);
      }
    }
    // A vector whose upper bound is below both kth and 1 scores less than those k, clamped too
    // (unless kth ≤ -1, where all may tie at -1): it cannot be in the results, so only the rest
    // get an exact score.
    const kth = lower.threshold();
    const cutoff = kth > -1 ? Math.min(kth, 1) : -Infinity;

    const top = new TopK(limit, store.ids);
    threshold = top.threshold();
    for (let page = 0, slot = 0; slot < size; page++, slot += perPage) {
      const count = Math.min(perPage, size - slot);
      const source = store.pages[page];
      const { dots, bounds } = source;
      for (let j = 0; j < count; j++) {
        if (dots[j] + bounds[j] < cutoff || (accept && !accept(ids[slot + j]))) continue;
        const score = clamp(store.exactDot(source, j, slot + j));
        this.exactScores++;
        if (score >= threshold) threshold = top.offer(score, slot + j);
      }
    }
    return this.matches(top);
  }

  /**
   * Checks the query, writes its unit vector to `unitQuery` and returns how many results to give
   * (0: none).
   */
  private prepareQuery(query: ArrayLike<number>, k: number): number {
    const norm = checkedNorm(query, this.dimensions, 'query');
    const limit = Math.min(Math.floor(k), this.store.size);
    if (!(limit > 0) || norm === 0) return 0;
    for (let i = 0; i < this.dimensions; i++) this.unitQuery[i] = query[i] / norm;
    return limit;
  }

  private matches(top: TopK): VectorMatch[] {
    const ids = this.store.ids;
    return top.drain().map(({ slot, score }) => ({ id: ids[slot], score }));
  }
}
