/**
 * Storage of {@link VectorIndex}: the rounded halves of unit vectors in pages of `vectorsPerPage`
 * vectors each (see vectorPage.ts), one after another, so there are no per-vector objects; slot `s`
 * lives in page `s / vectorsPerPage`. Besides the pages there is only the slot → id array, the
 * id → slot map, and the exact float32 rows (see vectorRows.ts). Removing swaps the last vector
 * into the hole, so the used slots stay dense (a scan needs no holes check) and removal is
 * O(dimensions).
 */
import { floatStride, IN_MEMORY, VectorPage } from './vectorPage';
import { ExactRows } from './vectorRows';

/** Where a slot lives: its page and its index within that page. */
export interface PageLocation {
  page: number;
  index: number;
}

export class VectorPages {
  readonly pages: VectorPage[] = [];
  /** The id in each used slot; its length is the size. */
  readonly ids: string[] = [];
  /** Where each vector's float32 row is kept whole. */
  readonly exact: ExactRows;
  private readonly slots = new Map<string, number>();
  /** The unit vector being stored, zero padded to the stride, before its halves go into the page. */
  private readonly unit: Float32Array;

  /** @param simd `false` forces the plain loops instead of the WebAssembly SIMD kernels. */
  constructor(
    readonly dimensions: number,
    readonly vectorsPerPage: number,
    private readonly simd?: boolean,
  ) {
    this.unit = new Float32Array(floatStride(dimensions));
    this.exact = new ExactRows(dimensions);
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

  /** Makes `unit` (`dimensions` floats) the query of every page’s next rounded scan and exact scores. */
  loadQuery(unit: Float32Array): void {
    for (const page of this.pages) page.query.set(unit);
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
  exactDot(page: VectorPage, index: number, slot: number): number {
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
    this.pages.push(new VectorPage({ dimensions: this.dimensions, capacity: this.vectorsPerPage, simd: this.simd }));
  }

  private copySlot(from: number, to: number): void {
    const { page: sourcePage, index: sourceIndex } = this.locate(from);
    const { page: targetPage, index: targetIndex } = this.locate(to);
    this.pages[targetPage].copy(this.pages[sourcePage], sourceIndex, targetIndex);
  }
}
