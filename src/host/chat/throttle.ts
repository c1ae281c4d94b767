/**
 * Runs `action` at most once per `intervalMs`: at once when the last run is old enough, else once
 * at the end of the interval, so the latest state always goes out, even if nothing follows.
 */
export class Throttle {
  private last = 0;
  private timer?: ReturnType<typeof setTimeout>;

  constructor(
    private readonly intervalMs: number,
    private readonly action: () => void,
  ) {}

  request(): void {
    if (this.timer) return;
    const wait = this.last + this.intervalMs - Date.now();
    if (wait <= 0) return this.run();
    this.timer = setTimeout(() => this.run(), wait);
  }

  /** Drops a pending run (the caller sends the final state itself). */
  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private run(): void {
    this.timer = undefined;
    this.last = Date.now();
    this.action();
  }
}
