/**
 * Storage of {@link VectorIndex}: unit vectors in Float32Array pages of `vectorsPerPage` vectors
 * each, one after another, so there are no per-vector objects; slot `s` lives in page
 * `s / vectorsPerPage`. Besides the pages there is only the slot → id array and the id → slot map.
 * Removing swaps the last vector into the hole, so the used slots stay dense (a scan needs no
 * holes check) and removal is O(dimensions).
 */
import { quantizeInt8 } from './vectorInt8';

/** Where a slot lives: its page and its index within that page. */
export interface PageLocation {
  page: number;
  index: number;
}

export class VectorPages {
  /** Unit vectors, `vectorsPerPage × dimensions` floats per page. */
  readonly pages: Float32Array[] = [];
  /** With `quantized`: int8 codes, `vectorsPerPage × codeStride` bytes per page (zero padded). */
  readonly codePages: Int8Array[] = [];
  /** With `quantized`: per vector, the factor from its codes back to its components. */
  readonly scalePages: Float32Array[] = [];
  /** The id in each used slot; its length is the size. */
  readonly ids: string[] = [];
  private readonly slots = new Map<string, number>();

  constructor(
    readonly dimensions: number,
    readonly vectorsPerPage: number,
    readonly quantized: boolean,
    readonly codeStride: number,
  ) {}

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

  has(id: string): boolean {
    return this.slots.has(id);
  }

  locate(slot: number): PageLocation {
    const page = Math.floor(slot / this.vectorsPerPage);
    return { page, index: slot - page * this.vectorsPerPage };
  }

  /**
   * Stores `vector / norm` under `id` (zeros if `norm` is 0), in its existing slot or a new one.
   * The caller has already checked the vector, so this cannot fail half-way.
   */
  put(id: string, vector: ArrayLike<number>, norm: number): void {
    let slot = this.slots.get(id);
    if (slot === undefined) {
      slot = this.ids.length;
      if (slot === this.pages.length * this.vectorsPerPage) this.addPage();
      this.ids.push(id);
      this.slots.set(id, slot);
    }
    const d = this.dimensions;
    const { page, index } = this.locate(slot);
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
    while (this.pages.length > needed + 1) {
      this.pages.pop();
      this.codePages.pop();
      this.scalePages.pop();
    }
    return true;
  }

  private addPage(): void {
    this.pages.push(new Float32Array(this.vectorsPerPage * this.dimensions));
    if (this.quantized) {
      this.codePages.push(new Int8Array(this.vectorsPerPage * this.codeStride));
      this.scalePages.push(new Float32Array(this.vectorsPerPage));
    }
  }

  private copySlot(from: number, to: number): void {
    const source = this.locate(from);
    const target = this.locate(to);
    const d = this.dimensions;
    this.pages[target.page].set(
      this.pages[source.page].subarray(source.index * d, source.index * d + d),
      target.index * d,
    );
    if (this.quantized) {
      const stride = this.codeStride;
      this.codePages[target.page].set(
        this.codePages[source.page].subarray(source.index * stride, source.index * stride + stride),
        target.index * stride,
      );
      this.scalePages[target.page][target.index] = this.scalePages[source.page][source.index];
    }
  }
}
