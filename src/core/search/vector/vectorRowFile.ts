import * as fs from 'node:fs';

/**
 * The float32 rows of a vectors file (the embedding cache's `vectors.f32`: `rowBytes` per row, back
 * to back), read in place with positional reads: a search reads the few rows it scores exactly, a
 * few KiB, instead of keeping every float in memory.
 *
 * The file is opened on the first read and closed once the running task is over (setImmediate),
 * so between searches no handle is held: after a compaction the writer can delete the old file,
 * which Windows refuses while it is open. Committed rows never change in place (the writer
 * appends, or compacts into a new file), but a read can still meet another file than the rows
 * were mapped to, or none: the caller checks every row it reads against what it knows of the
 * vector (vectorRows.ts).
 */
export class VectorRowFile {
  private descriptor: number | undefined;

  constructor(
    readonly path: string,
    private readonly rowBytes: number,
  ) {}

  /** Reads row `row` into `target` (`rowBytes` long); false when the file cannot be opened or ends before it. */
  read(row: number, target: Uint8Array): boolean {
    try {
      const descriptor = this.open();
      let done = 0;
      while (done < this.rowBytes) {
        const read = fs.readSync(descriptor, target, done, this.rowBytes - done, row * this.rowBytes + done);
        if (read === 0) return false;
        done += read;
      }
      return true;
    } catch {
      return false;
    }
  }

  private open(): number {
    if (this.descriptor === undefined) {
      this.descriptor = fs.openSync(this.path, 'r');
      setImmediate(() => this.close());
    }
    return this.descriptor;
  }

  private close(): void {
    if (this.descriptor === undefined) return;
    const descriptor = this.descriptor;
    this.descriptor = undefined;
    try {
      fs.closeSync(descriptor);
    } catch {
      // already closed: nothing to free
    }
  }
}
