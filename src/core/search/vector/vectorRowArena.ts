/**
 * The float32 rows {@link ExactRows} keeps in memory (vectors not in the cache's file yet), in
 * blocks of about 256 KiB that are WebAssembly memories: V8 maps those from the system and unmaps
 * them when they are collected. A row of its own would be a 4-KiB allocation from the C heap,
 * whose freed memory stays resident, scattered among live allocations, long after a save let the
 * rows go (after a first indexing of 100,000 chunks that was 4.4 KB per chunk of resident memory
 * holding nothing). A block is released once its last row goes.
 */
const WASM_PAGE_BYTES = 65536;
const BLOCK_PAGES = 4;

export class RowArena {
  private readonly rowsPerBlock: number;
  private readonly blocks: (Float32Array | undefined)[] = [];
  /** The free cells of each block (indices within it). */
  private readonly freeCells: number[][] = [];
  /** Rows in use in each block. */
  private readonly used: number[] = [];
  /** Blocks with free cells, the one to fill last (a released block may still be listed: it is skipped). */
  private readonly open: number[] = [];

  constructor(private readonly dimensions: number) {
    this.rowsPerBlock = Math.max(1, Math.floor((BLOCK_PAGES * WASM_PAGE_BYTES) / (dimensions * 4)));
  }

  /** How many blocks hold memory now. */
  get liveBlocks(): number {
    return this.blocks.filter((block) => block !== undefined).length;
  }

  /** Stores a copy of the first `dimensions` floats of `values`; returns its cell. */
  take(values: Float32Array): number {
    let block = this.open[this.open.length - 1];
    while (block !== undefined && (this.blocks[block] === undefined || this.freeCells[block].length === 0)) {
      this.open.pop();
      block = this.open[this.open.length - 1];
    }
    if (block === undefined) block = this.addBlock();
    const index = this.freeCells[block].pop()!;
    if (this.freeCells[block].length === 0) this.open.pop();
    this.used[block]++;
    const cell = block * this.rowsPerBlock + index;
    this.row(cell).set(values.subarray(0, this.dimensions));
    return cell;
  }

  /** The row in `cell` (a view: copy what you keep). */
  row(cell: number): Float32Array {
    const block = Math.floor(cell / this.rowsPerBlock);
    const at = (cell - block * this.rowsPerBlock) * this.dimensions;
    return this.blocks[block]!.subarray(at, at + this.dimensions);
  }

  /** Frees `cell`; a block left empty is released. */
  release(cell: number): void {
    const block = Math.floor(cell / this.rowsPerBlock);
    if (--this.used[block] === 0) {
      this.blocks[block] = undefined;
      this.freeCells[block] = [];
      return;
    }
    const free = this.freeCells[block];
    free.push(cell - block * this.rowsPerBlock);
    if (free.length === 1) this.open.push(block);
  }

  private addBlock(): number {
    const block = this.blocks.length;
    const bytes = this.rowsPerBlock * this.dimensions * 4;
    this.blocks.push(new Float32Array(new WebAssembly.Memory({ initial: Math.ceil(bytes / WASM_PAGE_BYTES) }).buffer, 0, bytes / 4));
    this.freeCells.push(Array.from({ length: this.rowsPerBlock }, (_, i) => this.rowsPerBlock - 1 - i));
    this.used.push(0);
    this.open.push(block);
    return block;
  }
}
