/**
 * Saves the embedding cache every few batches that arrive, so a run cut short (a window reload, a
 * crash, a close) loses at most the batches since the last checkpoint and those in flight: every
 * vector is paid for, and the next run takes the saved ones from the cache instead of embedding them
 * again. A save appends only the new rows (see CacheWriter), so it costs little.
 */
export class Checkpoints {
  private unsaved = 0;
  private last: Promise<void> = Promise.resolve();

  constructor(
    private readonly cache: { save(): Promise<void> },
    /** Batches between two saves; 0 never saves. */
    private readonly every: number,
    /** A save failed: indexing goes on (the vectors stay in memory, and the next checkpoint tries again). */
    private readonly onSaveFailed: (error: unknown) => void,
  ) {}

  /** A batch's vectors went into the cache. */
  batchStored(): void {
    if (this.every <= 0 || ++this.unsaved < this.every) return;
    this.unsaved = 0;
    this.last = this.cache.save().catch(this.onSaveFailed);
  }

  /** Settles once the last checkpoint's save has (saves queue, so every earlier one has too). */
  get settled(): Promise<void> {
    return this.last;
  }
}
