/**
 * Bounded top-k selection for {@link VectorIndex}: keeps the best k of any number of scored slots
 * in O(k) memory, so a search never sorts the whole index.
 */

/**
 * The best `capacity` (score, slot) pairs offered so far: a binary min-heap whose root is the
 * worst kept pair. Lower scores are worse; of equal scores, the greater id is worse.
 */
export class TopK {
  private readonly scores: Float64Array;
  private readonly slots: Int32Array;
  count = 0;

  constructor(
    private readonly capacity: number,
    private readonly ids: readonly string[],
  ) {
    this.scores = new Float64Array(capacity);
    this.slots = new Int32Array(capacity);
  }

  /** Offers scoring below this are certainly rejected (while not full: -Infinity). */
  threshold(): number {
    return this.count < this.capacity ? -Infinity : this.scores[0];
  }

  /** The slot of the `index`th kept pair, in heap order. */
  slotAt(index: number): number {
    return this.slots[index];
  }

  /** Keeps (score, slot) if it is among the best so far; returns the new {@link threshold}. */
  offer(score: number, slot: number): number {
    const scores = this.scores;
    const slots = this.slots;
    if (this.count < this.capacity) {
      let i = this.count++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.worse(score, slot, scores[parent], slots[parent])) break;
        scores[i] = scores[parent];
        slots[i] = slots[parent];
        i = parent;
      }
      scores[i] = score;
      slots[i] = slot;
    } else if (this.worse(scores[0], slots[0], score, slot)) {
      this.siftDown(score, slot, this.count);
    }
    return this.threshold();
  }

  /** Empties the heap and returns its pairs, best first. */
  drain(): { slot: number; score: number }[] {
    const sorted = new Array<{ slot: number; score: number }>(this.count);
    for (let rank = this.count - 1; rank >= 0; rank--) {
      sorted[rank] = { slot: this.slots[0], score: this.scores[0] };
      const last = --this.count;
      if (last > 0) this.siftDown(this.scores[last], this.slots[last], last);
    }
    return sorted;
  }

  /** Places (score, slot) at the root and moves it down within the first `n` entries. */
  private siftDown(score: number, slot: number, n: number): void {
    const scores = this.scores;
    const slots = this.slots;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && this.worse(scores[child + 1], slots[child + 1], scores[child], slots[child])) child++;
      if (!this.worse(scores[child], slots[child], score, slot)) break;
      scores[i] = scores[child];
      slots[i] = slots[child];
      i = child;
    }
    scores[i] = score;
    slots[i] = slot;
  }

  /** Whether (score, slot) ranks below (otherScore, otherSlot). */
  private worse(score: number, slot: number, otherScore: number, otherSlot: number): boolean {
    return score !== otherScore ? score < otherScore : this.ids[slot] > this.ids[otherSlot];
  }
}
