import { cancelled } from '../base/abortable';
import { ServiceError } from '../serviceError';
import { silentLogger, type Logger } from '../base/logger';
import type { LeaseFiles, FileLease } from './leaseFiles';
import { StreamBudget } from './streamBudget';

/**
 * Who is waiting for a request: `now` the user (a question, Explain, a Chat turn, a commit
 * message, a review); `typing` a suggestion as they type (never queued: sent when a stream is free
 * in time, or not at all); `background` work that yields (indexing, token counts, the model list).
 */
export type StreamPriority = 'now' | 'typing' | 'background';

export const PRIORITIES: readonly StreamPriority[] = ['now', 'typing', 'background'];

/** One stream of the account, held while its request is served. */
export interface StreamLease {
  readonly priority: StreamPriority;
  /** Gives the stream back; `served` says the service answered it (the budget may grow). Idempotent. */
  release(served?: boolean): void;
}

export interface StreamRequest {
  priority: StreamPriority;
  signal?: AbortSignal;
  /** `typing`: how long a stream may take to come free before the suggestion is skipped, in ms. */
  maxWaitMs?: number;
  /** Told `true` when the request has to wait for a stream, `false` when it got one or stopped waiting. */
  onWait?: (waiting: boolean) => void;
}

/** What the scheduler is doing, for the status bar. */
export interface StreamActivity {
  budget: number;
  serving: Record<StreamPriority, number>;
  waiting: Record<StreamPriority, number>;
}

export interface StreamSchedulerOptions {
  /** The account's streams (see `streamsOfScope`). */
  streams: number;
  /** Shared with the other windows of this machine; without it, this process counts alone. */
  leases?: LeaseFiles;
  logger?: Logger;
  /** How often the other windows' leases are looked at again while a request waits on them, in ms. */
  pollMs?: number;
  /**
   * How long a stream given back unserved (a stop, a failure) stays out, in ms: the service sees
   * the connection close a moment after the client closes it, and a request sent on that stream
   * at once would be refused. Default 50.
   */
  closingMs?: number;
}

interface Waiter extends StreamRequest {
  grant(lease: StreamLease | undefined): void;
  fail(error: ServiceError): void;
}

/** How long after a stream was closed a 429 may be its echo rather than another program's request, in ms. */
const RECENTLY_CLOSED_MS = 2_000;

/**
 * One per account: every request to the service takes a stream here first. Streams go by
 * priority, first come first served within one: a `now` request waits at most for the requests
 * in flight, never behind a queue of background work, which starts nothing new while it waits.
 */
export class StreamScheduler {
  readonly budget: StreamBudget;
  private readonly waiters: Waiter[] = [];
  private readonly serving: Record<StreamPriority, number> = { now: 0, typing: 0, background: 0 };
  /** Other requests of the account in flight when each lease was given: a 429 with some is the limit. */
  private readonly othersAtGrant = new WeakMap<StreamLease, number>();
  /** Leases whose request the service refused with 429: given back, they close no stream there. */
  private readonly refusedLeases = new WeakSet<StreamLease>();
  /** Streams given back unserved, still closing (see `closingMs`). */
  private closing = 0;
  /** When a stream was last given back unserved: the service may count it a while longer. */
  private lastClosedAt = -Infinity;
  private readonly listeners = new Set<(activity: StreamActivity) => void>();
  private poll?: NodeJS.Timeout;
  private wanting = false;

  constructor(private readonly options: StreamSchedulerOptions) {
    this.budget = new StreamBudget(options.streams, options.logger ?? silentLogger);
  }

  /** Requests served now by this process. */
  get inFlight(): number {
    return this.serving.now + this.serving.typing + this.serving.background;
  }

  /** Requests of the account served now, in this window and the others. */
  private accountInFlight(): number {
    return this.inFlight + (this.options.leases?.heldByOthers() ?? 0);
  }

  /**
   * A stream for `request`, once it is its turn. A `typing` request that gets none within its
   * `maxWaitMs` is skipped: a `cancelled` error that says so. Aborting the signal stops the wait.
   */
  acquire(request: StreamRequest): Promise<StreamLease> {
    if (request.signal?.aborted) return Promise.reject(cancelled());
    return new Promise<StreamLease>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      let waited = false;
      const settle = () => {
        clearTimeout(timer);
        request.signal?.removeEventListener('abort', onAbort);
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        if (waited) request.onWait?.(false);
        this.changed();
      };
      const waiter: Waiter = {
        ...request,
        grant: (lease) => {
          settle();
          if (lease) resolve(lease);
          else reject(new ServiceError('cancelled', 'The suggestion was skipped: no stream of the account came free in time.'));
        },
        fail: (error) => {
          settle();
          reject(error);
        },
      };
      const onAbort = () => waiter.fail(cancelled());
      request.signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
      this.pump();
      if (!this.waiters.includes(waiter)) return;
      if (request.priority === 'typing') timer = setTimeout(() => waiter.grant(undefined), request.maxWaitMs ?? 0);
      waited = true;
      request.onWait?.(true);
      this.changed();
    });
  }

  /**
   * The service refused `lease`'s request with 429. Cuts the budget when other requests of the
   * account were in flight (the limit is reached), and gives the stream back. Returns whether it
   * was the limit: then a request that can wait should take its turn again, not count a failure.
   */
  refused(lease: StreamLease): boolean {
    const others = Math.max(this.othersAtGrant.get(lease) ?? 0, this.accountInFlight() - 1);
    // Judged before the release: a refused request held no stream at the service, so its own
    // release must not read as the stream that may still be counted (it would retry for a minute).
    const recentlyClosed = Date.now() - this.lastClosedAt < RECENTLY_CLOSED_MS;
    this.refusedLeases.add(lease);
    lease.release(false);
    // A stream just closed may still be counted by the service: its turn again, the budget kept.
    if (others < 1) return recentlyClosed;
    this.budget.refused(others);
    return true;
  }

  /** Follows what the scheduler does (waiting and serving counts); returns the unsubscribe. */
  onDidChange(listener: (activity: StreamActivity) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  activity(): StreamActivity {
    const waiting = { now: 0, typing: 0, background: 0 };
    for (const waiter of this.waiters) waiting[waiter.priority] += 1;
    return { budget: this.budget.current, serving: { ...this.serving }, waiting };
  }

  /** Stops the polling and tells the other windows nothing waits here any more. */
  dispose(): void {
    clearTimeout(this.poll);
    this.options.leases?.setWanting(false);
    for (const waiter of [...this.waiters]) waiter.fail(cancelled());
  }

  /** Grants streams while there are some to give, in priority order. */
  private pump(): void {
    for (;;) {
      const next = this.next();
      this.want(next?.priority === 'now');
      if (!next || this.inFlight + this.closing >= this.budget.current) return;
      const leases = this.options.leases;
      // A question waiting in another window comes before this one's suggestions and background work.
      if (next.priority !== 'now' && leases?.othersWanting()) return this.pollLater();
      const file = leases?.tryTake(this.budget.current);
      if (leases && !file) return this.pollLater();
      next.grant(this.lease(next.priority, file));
    }
  }

  private next(): Waiter | undefined {
    for (const priority of PRIORITIES) {
      const waiter = this.waiters.find((candidate) => candidate.priority === priority);
      if (waiter) return waiter;
    }
    return undefined;
  }

  private lease(priority: StreamPriority, file: FileLease | undefined): StreamLease {
    const others = this.accountInFlight();
    this.serving[priority] += 1;
    let held = true;
    const lease: StreamLease = {
      priority,
      release: (served = true) => {
        if (!held) return;
        held = false;
        this.serving[priority] -= 1;
        if (served) {
          this.budget.served();
          file?.release();
          this.pump();
        } else this.closed(file, !this.refusedLeases.has(lease));
        this.changed();
      },
    };
    this.othersAtGrant.set(lease, others);
    return lease;
  }

  /** A stream given back unserved is given again once the service has seen its connection close. */
  private closed(file: FileLease | undefined, heldAtService: boolean): void {
    this.closing += 1;
    if (heldAtService) this.lastClosedAt = Date.now();
    const reopen = setTimeout(() => {
      this.closing -= 1;
      file?.release();
      this.pump();
    }, this.options.closingMs ?? 50);
    reopen.unref?.();
  }

  /** Streams held by other windows are freed without a word to this one: look again soon. */
  private pollLater(): void {
    if (this.poll) return;
    this.poll = setTimeout(() => {
      this.poll = undefined;
      this.pump();
    }, this.options.pollMs ?? 100);
    this.poll.unref?.();
  }

  private want(wanting: boolean): void {
    if (wanting === this.wanting) return;
    this.wanting = wanting;
    this.options.leases?.setWanting(wanting);
  }

  private changed(): void {
    if (this.listeners.size === 0) return;
    const activity = this.activity();
    for (const listener of this.listeners) listener(activity);
  }
}
