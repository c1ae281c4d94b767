/** What VS Code's disposables are, structurally: this module needs no `vscode` at run time (its unit test runs under Node). */
export interface DisposableLike {
  dispose(): unknown;
}

/** Disposes each of `disposables`, even when one throws; rethrows what they threw once all are done. */
export function disposeAll(disposables: Iterable<DisposableLike>): void {
  const errors: unknown[] = [];
  for (const disposable of disposables) {
    try {
      disposable.dispose();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, 'Several disposables failed to dispose');
}

/**
 * The base of every class that owns disposables (listeners, emitters, watchers, status bar items):
 * `_register` hands back what it keeps, so a field is declared and registered in one line; what is
 * registered after `dispose()` is disposed at once, instead of leaking; `dispose()` twice is harmless.
 * A subclass with more to release overrides `dispose()`, returns when `isDisposed`, and calls `super.dispose()`.
 */
export abstract class Disposable implements DisposableLike {
  #disposed = false;
  readonly #owned: DisposableLike[] = [];

  protected get isDisposed(): boolean {
    return this.#disposed;
  }

  protected _register<T extends DisposableLike>(value: T): T {
    if (this.#disposed) value.dispose();
    else this.#owned.push(value);
    return value;
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    disposeAll(this.#owned.splice(0));
  }
}
