/**
 * Gathers the file system's events into batches for the search index. A save fires several events
 * for one file, and a branch checkout or an unpacked archive fires thousands in a burst: the
 * index gets each path once, with what happened to it last, when the events stop for a moment.
 */
import { type Clock, systemClock } from '../../core';

/** What happened to a path, as far as the index cares: it may have new content, or it is gone. */
export type PathChange = 'changed' | 'deleted';

export interface BatchTiming {
  /** Quiet time after the last event before the batch goes out. */
  quietMs: number;
  /** A batch goes out this long after its first event at most, even while events keep coming. */
  maxWaitMs: number;
}

/** A saved file is re-indexed within about a second, events or not. */
export const DEFAULT_BATCH_TIMING: BatchTiming = { quietMs: 300, maxWaitMs: 1000 };

export class ChangeBatcher {
  private pending = new Map<string, PathChange>();
  private firstAt = 0;
  private timer: unknown;

  constructor(
    private readonly deliver: (changes: ReadonlyMap<string, PathChange>) => void,
    private readonly timing: BatchTiming = DEFAULT_BATCH_TIMING,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Records an event for `key`; a later one for the same key replaces it (saved, then deleted: deleted). */
  add(key: string, change: PathChange): void {
    if (this.pending.size === 0) this.firstAt = this.clock.now();
    this.pending.set(key, change);
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    const untilLatest = this.firstAt + this.timing.maxWaitMs - this.clock.now();
    this.timer = this.clock.setTimeout(() => this.flush(), Math.max(0, Math.min(this.timing.quietMs, untilLatest)));
  }

  /** Drops what is waiting (the index that would take it is going away). */
  dispose(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = new Map();
  }

  private flush(): void {
    const changes = this.pending;
    this.pending = new Map();
    this.timer = undefined;
    this.deliver(changes);
  }
}

/** What to do with a batch: update the files one by one, or, for more than a few, scan again. */
export type BatchPlan = { kind: 'each'; changes: [string, PathChange][] } | { kind: 'scan'; count: number };

/**
 * Single updates for the changes that `matters` (paths the index could hold or whose change
 * alters its rules), unless there are more than `limit` of them: each costs a few file system
 * calls, where one scan lists the workspace once and takes unchanged files from the cache.
 */
export function planBatch(changes: ReadonlyMap<string, PathChange>, matters: (key: string) => boolean, limit: number): BatchPlan {
  const relevant = [...changes].filter(([key]) => matters(key));
  return relevant.length > limit ? { kind: 'scan', count: relevant.length } : { kind: 'each', changes: relevant };
}
