/**
 * Storage of {@link VectorIndex}: the rounded values of unit vectors in pages of `vectorsPerPage`
 * vectors each, one after another, so there are no per-vector objects; slot `s` lives in page
 * `s / vectorsPerPage`. The pages are all bfloat16 (vectorPage.ts) or all int8 (vectorPageInt8.ts):
 * see {@link defaultInt8From} for which. Besides the pages there is only the slot → id array, the
 * id → slot map, and the exact float32 rows (see vectorRows.ts). Removing swaps the last vector
 * into the hole, so the used slots stay dense (a scan needs no holes check) and removal is
 * O(dimensions).
 */
import { QueryCodes } from './vectorInt8';
import { floatStride, VectorPage } from './vectorPage';
import { Int8Page, int8Stride } from './vectorPageInt8';
import { IN_MEMORY, type StoredPage } from './vectorPageMemory';
import { ExactRows } from './vectorRows';

/** How a page keeps its vectors' values for the first pass of a search. */
export type Precision = 'bf16' | 'int8';

/**
 * Bytes of bfloat16 pages up to which they are kept; an index that grows past them turns int8
 * (and stays so). Both give the same results. int8 takes half the memory (0.31× the floats
 * against 0.56× for 100,000 vectors of 1,024 dimensions, ids included) and scans half the bytes,
 * but its bound is about twice as wide, so a search scores two or three times as many vectors
 * exactly, each a row read back from the vectors file (a random read, slow on a cold disk cache):
 * in test/bench/vectorIndex.ts int8 is no faster for 10,000 vectors (1.6 ms against 1.5) and
 * faster for 100,000 (20 ms against 30). Up to 64 MiB of bfloat16 pages (32,768 vectors of 1,024
 * dimensions) int8 would save at most 32 MiB, so bfloat16 keeps its fewer reads; beyond, memory is
 * what matters in an extension host shared with other extensions. Turning int8 reads every row
 * back once (about a second for 32,768 rows).
 */
const BF16_PAGES_UP_TO_BYTES = 64 * 2 ** 20;

/** How many vectors of `dimensions` an index holds when it turns int8, unless told otherwise. */
export function defaultInt8From(dimensions: number): number {
  return Math.floor(BF16_PAGES_UP_TO_BYTES / (2 * dimensions)) + 1;
}

/** Where a slot lives: its page and its index within that page. */
export interface PageLocation {
  page: number;
  index: number;
}

export class VectorPages {
  readonly pages: StoredPage[] = [];
  /** The id in each used slot; its length is the size. */
  readonly ids: string[] = [];
  /** Where each vector's float32 row is kept whole. */
  readonly exact: ExactRows;
  private readonly slots = new Map<string, number>();
  /** The unit vector being stored, zero padded to the stride, before its rounded values go into the page. */
  private readonly unit: Float32Array;
  /** The int8 codes of a search's query, which every int8 page takes. */
  private readonly queryCodes: QueryCodes;
  private int8: boolean;

  /**
   * @param simd `false` forces the plain loops instead of the WebAssembly SIMD kernels.
   * @param int8From the size at which the pages turn int8 (and stay so): 0 for int8 from the
   *   start, Infinity for bfloat16 for good.
   */
  constructor(
    readonly dimensions: number,
    readonly vectorsPerPage: number,
    private readonly simd: boolean | undefined,
    private readonly int8From: number,
  ) {
    this.unit = new Float32Array(Math.max(floatStride(dimensions), int8Stride(dimensions)));
    this.exact = new ExactRows(dimensions);
    this.queryCodes = new QueryCodes(dimensions, int8Stride(dimensions));
    this.int8 = int8From <= 0;
  }

  /** The pages' kind now. */
  get kind(): Precision {
    return this.int8 ? 'int8' : 'bf16';
  }

  get size(): number {
    return this.ids.length;
  }

  /** Bytes of the pages allocated now; not the ids, nor the rows kept in memory. */
  get allocatedBytes(): number {
    let bytes = 0;
    for (const page of this.pages) bytes += page.byteLength;
    return bytes;
  }

  has(id: string): boolean {
    return this.slots.has(id);
  }

  /** The slot of `id`, or undefined when it is not stored. */
  slotOf(id: string): number | undefined {
    return this.slots.get(id);
  }

  locate(slot: number): PageLocation {
    const page = Math.floor(slot / this.vectorsPerPage);
    return { page, index: slot - page * this.vectorsPerPage };
  }

  /** Makes `unit` (`dimensions` floats) the query of every page’s next first pass and exact scores. */
  loadQuery(unit: Float32Array): void {
    if (this.int8) this.queryCodes.load(unit);
    for (const page of this.pages) page.setQuery(unit);
  }

  /**
   * Stores `vector / norm` under `id` (zeros if `norm` is 0), in its existing slot or a new one,
   * its float32 row in memory. The caller has already checked the vector, so this cannot fail half-way.
   */
  put(id: string, vector: ArrayLike<number>, norm: number): void {
    const d = this.dimensions;
    const unit = this.unit;
    for (let i = 0; i < d; i++) unit[i] = norm === 0 ? 0 : vector[i] / norm;
    const { page, index } = this.locate(this.slotFor(id));
    this.pages[page].write(index, unit, IN_MEMORY);
    this.exact.keep(id, unit);
  }

  /** Stores the unit vector `values` under `id`, as it is, its float32 row being row `row` of the vectors file. */
  putRow(id: string, values: Float32Array, row: number): void {
    this.unit.set(values);
    const { page, index } = this.locate(this.slotFor(id));
    this.pages[page].write(index, this.unit, row);
    this.exact.drop(id);
  }

  /** Writes the stored unit vector of `id` to `target` (at least `dimensions` floats); false when there is none. */
  read(id: string, target: Float32Array): boolean {
    const slot = this.slots.get(id);
    if (slot === undefined) return false;
    const { page, index } = this.locate(slot);
    this.exact.read(id, this.pages[page], index, target);
    return true;
  }

  /** The exact float32 dot product of the loaded query with the vector in `slot` (`index` of `page`). */
  exactDot(page: StoredPage, index: number, slot: number): number {
    this.exact.read(this.ids[slot], page, index, page.whole);
    return page.wholeDot();
  }

  /**
   * The vectors file now holds `keys` from row `firstRow` on, row firstRow + i the unit vector of
   * `keys[i]`: each stored vector among them is read from there from now on (those kept in memory
   * only once the row read back is theirs, bit for bit, and then memory lets them go).
   */
  rowsSaved(path: string, keys: readonly string[], firstRow: number): void {
    this.exact.useFile(path);
    for (let i = 0; i < keys.length; i++) {
      const slot = this.slots.get(keys[i]);
      if (slot === undefined) continue;
      const { page, index } = this.locate(slot);
      if (this.exact.settle(keys[i], firstRow + i)) this.pages[page].rows[index] = firstRow + i;
    }
  }

  /** The slot of `id`, a new one at the end when it has none. */
  private slotFor(id: string): number {
    let slot = this.slots.get(id);
    if (slot === undefined) {
      slot = this.ids.length;
      if (!this.int8 && slot + 1 >= this.int8From) this.turnInt8();
      if (slot === this.pages.length * this.vectorsPerPage) this.addPage();
      this.ids.push(id);
      this.slots.set(id, slot);
    }
    return slot;
  }

  /**
   * Removes `id` by moving the last vector into its slot; pages beyond one spare are released (the
   * spare avoids reallocating when adds and removes alternate at a page boundary).
   *
   * @returns whether `id` was stored.
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
    this.exact.drop(id);
    const needed = Math.ceil(this.ids.length / this.vectorsPerPage);
    while (this.pages.length > needed + 1) this.pages.pop();
    return true;
  }

  private addPage(): void {
    this.pages.push(this.newPage());
  }

  private newPage(): StoredPage {
    const shape = { dimensions: this.dimensions, capacity: this.vectorsPerPage, simd: this.simd };
    return this.int8 ? new Int8Page(shape, this.queryCodes) : new VectorPage(shape);
  }

  /**
   * Turns every page into an int8 page, one at a time (so only one page more is held meanwhile),
   * from each vector's float32 row: read back from the file (a sequential read, once per index)
   * or memory.
   */
  private turnInt8(): void {
    this.int8 = true;
    const row = new Float32Array(this.unit.length);
    for (let p = 0; p < this.pages.length; p++) {
      const bf16 = this.pages[p];
      const int8 = this.newPage();
      const first = p * this.vectorsPerPage;
      for (let j = 0; first + j < this.ids.length && j < this.vectorsPerPage; j++) {
        this.exact.read(this.ids[first + j], bf16, j, row);
        int8.write(j, row, bf16.rows[j]);
      }
      this.pages[p] = int8;
    }
  }

  private copySlot(from: number, to: number): void {
    const { page: sourcePage, index: sourceIndex } = this.locate(from);
    const { page: targetPage, index: targetIndex } = this.locate(to);
    this.pages[targetPage].copy(this.pages[sourcePage], sourceIndex, targetIndex);
  }
}
