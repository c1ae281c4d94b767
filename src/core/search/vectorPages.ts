/**
 * Storage of {@link VectorIndex}: unit vectors in pages of `vectorsPerPage` vectors each (see
 * vectorPage.ts), one after another, so there are no per-vector objects; slot `s` lives in page
 * `s / vectorsPerPage`. Besides the pages there is only the slot → id array and the id → slot map.
 * Removing swaps the last vector into the hole, so the used slots stay dense (a scan needs no
 * holes check) and removal is O(dimensions).
 */
import { floatStride, VectorPage } from './vectorPage';

/** Where a slot lives: its page and its index within that page. */
export interface PageLocation {
  page: number;
  index: number;
}

export class VectorPages {
  readonly pages: VectorPage[] = [];
  /** The id in each used slot; its length is the size. */
  readonly ids: string[] = [];
  private readonly slots = new Map<string, number>();
  /** The unit vector being stored, zero padded to the stride, before it is split into the page. */
  private readonly unit: Float32Array;

  /** @param simd `false` forces the plain loops instead of the WebAssembly SIMD kernels. */
  constructor(
    readonly dimensions: number,
    readonly vectorsPerPage: number,
    private readonly simd?: boolean,
  ) {
    this.unit = new Float32Array(floatStride(dimensions));
  }

  get size(): number {
    return this.ids.length;
  }

  /** Bytes of the pages allocated now; not the ids. */
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
   * Stores `vector / norm` under `id` (zeros if `norm` is 0), in its existing slot or a new one.
   * The caller has already checked the vector, so this cannot fail half-way.
   */
  put(id: string, vector: ArrayLike<number>, norm: number): void {
    const d = this.dimensions;
    const unit = this.unit;
    for (let i = 0; i < d; i++) unit[i] = norm === 0 ? 0 : vector[i] / norm;
    const { page, index } = this.locate(this.slotFor(id));
    this.pages[page].write(index, unit);
  }

  /** Writes the stored unit vector of `id` to `target` (at least `dimensions` floats); false when there is none. */
  read(id: string, target: Float32Array): boolean {
    const slot = this.slots.get(id);
    if (slot === undefined) return false;
    const { page, index } = this.locate(slot);
    this.pages[page].read(index, target);
    return true;
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
