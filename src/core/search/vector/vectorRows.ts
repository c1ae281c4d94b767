/**
 * Where {@link VectorIndex} keeps each vector's float32 row whole, for the exact scores of the few
 * vectors a search's rounded first pass cannot rule out: in the cache's vectors file, read in place
 * (a few KiB per search), once the row is saved there; in memory until then (a vector just
 * embedded, or one loaded from an older format that the next save rewrites). The pages hold only
 * the rounded values (bfloat16 halves or int8 codes), and each vector's file row ({@link IN_MEMORY}
 * for those in memory).
 *
 * A row read from the file is checked against the vector's rounded values: if the file was
 * replaced or cut behind the index's back, the check fails (a wrong row rounds to the same values,
 * and for int8 the same scale and residual, with negligible odds) and the rounded values stand in,
 * within 2^-8 (bfloat16) or about 0.01 (int8) of the exact score, rather than another vector's
 * floats. {@link ExactRows.inexactReads} counts such reads.
 */
import { IN_MEMORY, type StoredPage } from './vectorPageMemory';
import { RowArena } from './vectorRowArena';
import { VectorRowFile } from './vectorRowFile';

export class ExactRows {
  /** Rows read back that were not the vector's (so its rounded values stood in). */
  inexactReads = 0;
  /** The cell in {@link arena} of each row not (yet) in the file, by id. */
  private readonly inMemory = new Map<string, number>();
  private readonly arena: RowArena;
  private file: VectorRowFile | undefined;
  /** A row read for {@link settle}. */
  private readonly scratch: Float32Array;

  constructor(private readonly dimensions: number) {
    this.scratch = new Float32Array(dimensions);
    this.arena = new RowArena(dimensions);
  }

  /** How many rows are kept in memory. */
  get inMemoryCount(): number {
    return this.inMemory.size;
  }

  /** The ids whose rows are kept in memory. */
  inMemoryIds(): string[] {
    return [...this.inMemory.keys()];
  }

  /** Rows are read from the vectors file at `path` from now on. */
  useFile(path: string): void {
    if (this.file?.path !== path) this.file = new VectorRowFile(path, this.dimensions * 4);
  }

  /** Keeps a copy of the first `dimensions` floats of `unit` as the row of `id`. */
  keep(id: string, unit: Float32Array): void {
    const cell = this.inMemory.get(id);
    if (cell === undefined) this.inMemory.set(id, this.arena.take(unit));
    else this.arena.row(cell).set(unit.subarray(0, this.dimensions));
  }

  /** Forgets the row of `id` kept in memory, if any. */
  drop(id: string): void {
    const cell = this.inMemory.get(id);
    if (cell === undefined) return;
    this.arena.release(cell);
    this.inMemory.delete(id);
  }

  /**
   * Whether row `row` of the file may stand for `id` from now on: yes if its row is not in memory
   * (it was in the file already), or if it is and the file's row is the same, bit for bit (then
   * memory lets it go).
   */
  settle(id: string, row: number): boolean {
    const cell = this.inMemory.get(id);
    if (cell === undefined) return true;
    if (!this.readFile(row, this.scratch) || !sameBits(this.arena.row(cell), this.scratch)) return false;
    this.drop(id);
    return true;
  }

  /** Writes the float32 row of `id` (vector `index` of `page`) to `target`: exact, unless its file row is not its own (then its rounded values). */
  read(id: string, page: StoredPage, index: number, target: Float32Array): void {
    const row = page.rows[index];
    if (row === IN_MEMORY) {
      target.set(this.arena.row(this.inMemory.get(id)!));
      return;
    }
    const values = target.subarray(0, this.dimensions);
    if (this.readFile(row, values) && page.matches(index, values)) return;
    this.inexactReads++;
    page.readRounded(index, target);
  }

  private readFile(row: number, target: Float32Array): boolean {
    return this.file !== undefined && this.file.read(row, new Uint8Array(target.buffer, target.byteOffset, this.dimensions * 4));
  }
}

function sameBits(a: Float32Array, b: Float32Array): boolean {
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const y = new Uint32Array(b.buffer, b.byteOffset, b.length);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}
