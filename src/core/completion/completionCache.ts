/**
 * Completions already had, so typing does not ask again. Keyed by the text around the cursor (its
 * nearest part: what the model was shown nearby). While the user types what a completion
 * suggests, its rest is the completion for the new position: VS Code asks the provider at each
 * keystroke, and an answer from here keeps the suggestion on screen without a request.
 */
export class CompletionCache {
  private readonly entries = new Map<string, { prefix: string; suffix: string; completion: string }>();

  constructor(private readonly capacity = 250) {}

  /** The completion for the cursor between `prefix` and `suffix`, had or typed into; undefined when none. */
  get(prefix: string, suffix: string): string | undefined {
    const [near, after] = [tail(prefix), head(suffix)];
    const exact = this.entries.get(key(near, after));
    if (exact) {
      this.touch(key(near, after), exact);
      return exact.completion;
    }
    for (const entry of [...this.entries.values()].reverse()) {
      if (entry.suffix !== after) continue;
      // The first `typed` characters of the completion typed since: the text before them is the text it was had for.
      for (let typed = 1; typed < entry.completion.length; typed++) {
        if (!near.endsWith(entry.completion.slice(0, typed))) continue;
        const base = near.slice(0, -typed);
        if (base.length >= entry.prefix.length - typed && entry.prefix.endsWith(base)) return entry.completion.slice(typed);
      }
    }
    return undefined;
  }

  set(prefix: string, suffix: string, completion: string): void {
    const entry = { prefix: tail(prefix), suffix: head(suffix), completion };
    this.touch(key(entry.prefix, entry.suffix), entry);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }

  clear(): void {
    this.entries.clear();
  }

  private touch(id: string, entry: { prefix: string; suffix: string; completion: string }): void {
    this.entries.delete(id);
    this.entries.set(id, entry);
  }
}

/** The part of the text around the cursor a completion depends on, and that the cache keeps. */
const NEAR_CHARS = 2_000;

function tail(prefix: string): string {
  return prefix.slice(-NEAR_CHARS);
}

function head(suffix: string): string {
  return suffix.slice(0, NEAR_CHARS);
}

function key(prefix: string, suffix: string): string {
  return `${prefix}\u0000${suffix}`;
}
