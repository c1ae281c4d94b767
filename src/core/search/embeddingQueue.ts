import { planBatches, type BatchLimits } from '../service/embeddingBatches';

export interface QueuedText {
  key: string;
  text: string;
}

/**
 * Texts that still need a vector, each queued once however many files share it, and who waits for
 * each one (while it is queued or in flight). Hands the queue out in batches within `limits`.
 */
export class EmbeddingQueue<Waiter> {
  private queued: QueuedText[] = [];
  private queuedChars = 0;
  private readonly waiters = new Map<string, Waiter[]>();

  constructor(private readonly limits: BatchLimits) {}

  /** Registers `waiter` for the vector of `key`, queueing `text` unless someone already waits for it. */
  request(key: string, text: string, waiter: Waiter): void {
    const waiting = this.waiters.get(key);
    if (waiting) {
      waiting.push(waiter);
      return;
    }
    this.waiters.set(key, [waiter]);
    this.queued.push({ key, text });
    this.queuedChars += text.length;
  }

  /**
   * Takes batches off the front of the queue: only while a full one can be made, unless `all` (the
   * input has ended), so that small files read one by one still travel in full batches.
   */
  takeBatches(all: boolean): QueuedText[][] {
    const taken: QueuedText[][] = [];
    let from = 0;
    for (const planned of planBatches(
      this.queued.map((item) => item.text),
      this.limits,
    )) {
      const ready = all || this.queued.length - from >= this.limits.maxItems || this.queuedChars >= this.limits.maxChars;
      if (!ready) break;
      taken.push(this.queued.slice(from, from + planned.length));
      from += planned.length;
      for (const text of planned) this.queuedChars -= text.length;
    }
    if (from > 0) this.queued = this.queued.slice(from);
    return taken;
  }

  /** The waiters of `key`, whose vector has arrived; they are forgotten here. */
  resolve(key: string): Waiter[] {
    const waiting = this.waiters.get(key) ?? [];
    this.waiters.delete(key);
    return waiting;
  }
}
