/** Resolves after the event loop has run what is due (timers, sockets, messages from VS Code). */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** How long a loop over many items may hold the event loop before it yields. */
const SLICE_MS = 10;

/**
 * Calls `step` for each item, yielding to the event loop whenever `sliceMs` have passed since it
 * last did, so a loop over tens of thousands of paths does not hold up the rest of the extension
 * host (the status bar, a dialog) however slow each step is.
 */
export async function forEachYielding<T>(items: Iterable<T>, step: (item: T) => void | Promise<void>, sliceMs = SLICE_MS): Promise<void> {
  let sliceStart = performance.now();
  for (const item of items) {
    await step(item);
    if (performance.now() - sliceStart >= sliceMs) {
      await yieldToEventLoop();
      sliceStart = performance.now();
    }
  }
}
