import { abortable } from '../base/abortable';
import { sleep } from '../service/retry';
import type { Completion, CompletionRequest } from './completeAt';
import { CompletionCache } from './completionCache';

/** One place the editor asks for a suggestion: the text around the cursor, and how it was asked. */
export interface SuggestionSite {
  prefix: string;
  suffix: string;
  /** Asked with Alt+\ (VS Code's trigger command): no pause in typing is waited for. */
  explicit: boolean;
  /** The pause in typing to wait for first, in ms. */
  debounceMs: number;
}

/** Asks the model; `onPartial` gets the suggestion as far as it has streamed (cleaned), when the model streams. */
export type Ask = (
  request: CompletionRequest,
  options: { signal: AbortSignal; onPartial: (text: string) => void; /** How long a stream of the account may take to come free, in ms. */ maxWaitMs: number },
) => Promise<Completion>;

/** What happened to a request, for the bench and the log: shown, aborted as stale, or finished unused. */
export interface SuggesterEvents {
  sent?(site: { prefix: string; suffix: string }): void;
  settled?(outcome: 'answered' | 'aborted' | 'failed'): void;
}

interface InFlight {
  prefix: string;
  suffix: string;
  /** The suggestion as far as it has streamed. */
  partial: string;
  /** What the newest caller typed since it was sent; the request is stale once its suggestion cannot begin with it. */
  typed: string;
  controller: AbortController;
  done: Promise<unknown>;
}

/**
 * Who types on past suggestions is not asking for them: after each one made stale before it came,
 * the pause before the next request grows by this, up to this many times (a suggestion shown, or
 * Alt+\, asks as before).
 */
const TYPED_PAST_STEP_MS = 150;
const TYPED_PAST_STEPS = 4;

/**
 * Cheap while typing: the part of suggestions as you type that decides whether to ask at all.
 *   - A place already asked, or a suggestion being typed, is answered from the cache.
 *   - A request still out whose place the new one extends (the user typed on) is waited for,
 *     not asked again, while what it has streamed can still begin with what was typed since; the
 *     moment it cannot, it is aborted, HTTP request included. A request the new place does not
 *     extend (a deletion, another line, another file) is aborted at once.
 *   - Otherwise a pause in typing is waited for (none when asked explicitly; longer after
 *     suggestions the user typed past), which the next keystroke cancels, and one request is sent.
 * Knows nothing of VS Code: the provider hands it the text and a cancellation signal.
 */
export class Suggester {
  private readonly cache = new CompletionCache();
  private inFlight?: InFlight;
  /** Suggestions in a row the user typed past before they came; each adds to the pause before the next request. */
  private typedPast = 0;

  constructor(private readonly events: SuggesterEvents = {}) {}

  /**
   * The suggestion for `site`: '' for none. `request` builds the request when one must be sent;
   * `cancel` is the caller's (VS Code cancels a call when the next keystroke comes).
   */
  async suggest(site: SuggestionSite, request: () => Promise<CompletionRequest>, ask: Ask, cancel: AbortSignal): Promise<string> {
    const known = this.cache.get(site.prefix, site.suffix);
    if (known !== undefined) return known;
    // A request the new place makes stale ends here; one it extends, still usable, is waited for.
    this.edited(site);
    const pending = this.inFlight;
    if (pending && !pending.controller.signal.aborted) {
      await abortable(pending.done, cancel).catch(() => undefined);
      if (cancel.aborted) return '';
      const served = this.cache.get(site.prefix, site.suffix);
      if (served !== undefined) return served;
    }
    if (!site.explicit) await sleep(site.debounceMs + Math.min(this.typedPast, TYPED_PAST_STEPS) * TYPED_PAST_STEP_MS, cancel).catch(() => undefined);
    if (cancel.aborted) return '';
    return this.send(site, await request(), ask, cancel);
  }

  /** Whether a request is out (an edit may make it stale: see `edited`). */
  get asking(): boolean {
    return this.inFlight !== undefined;
  }

  /**
   * The text changed while a request may be out (VS Code calls no provider again until the call
   * before has ended, so an edit is how the user's typing reaches a request still out): a request
   * the new text no longer extends, or whose suggestion cannot begin with what was typed, is
   * aborted now.
   */
  edited(site: { prefix: string; suffix: string }): void {
    const pending = this.inFlight;
    if (!pending) return;
    if (!this.extends(pending, site)) pending.controller.abort();
    else {
      pending.typed = site.prefix.slice(pending.prefix.length);
      if (!this.stillUsable(pending)) pending.controller.abort();
    }
  }

  clear(): void {
    this.inFlight?.controller.abort();
    this.cache.clear();
  }

  private async send(site: SuggestionSite, request: CompletionRequest, ask: Ask, cancel: AbortSignal): Promise<string> {
    this.inFlight?.controller.abort();
    const controller = new AbortController();
    let settle!: () => void;
    const flight: InFlight = {
      prefix: site.prefix,
      suffix: site.suffix,
      partial: '',
      typed: '',
      controller,
      done: new Promise<void>((resolve) => (settle = resolve)),
    };
    this.inFlight = flight;
    this.events.sent?.(site);
    try {
      const completion = await ask(request, {
        // Not the caller's signal: a request the next keystroke extends is still wanted.
        signal: controller.signal,
        // A stream busy longer than a pause in typing: the suggestion is skipped, not queued.
        maxWaitMs: site.debounceMs,
        onPartial: (text) => {
          flight.partial = text;
          if (!this.stillUsable(flight)) controller.abort();
        },
      });
      this.events.settled?.('answered');
      if (completion.text) this.cache.set(site.prefix, site.suffix, completion.text);
      if (cancel.aborted) return '';
      this.typedPast = 0;
      return completion.text;
    } catch (error) {
      this.events.settled?.(controller.signal.aborted ? 'aborted' : 'failed');
      if (!controller.signal.aborted) throw error;
      this.typedPast++;
      return '';
    } finally {
      if (this.inFlight === flight) this.inFlight = undefined;
      settle();
    }
  }

  /** The new place is the old one with text typed at the cursor. */
  private extends(flight: InFlight, site: { prefix: string; suffix: string }): boolean {
    return site.suffix === flight.suffix && site.prefix.length > flight.prefix.length && site.prefix.startsWith(flight.prefix);
  }

  /**
   * Whether what has streamed can still begin with what was typed since the request. Typed past
   * before anything streamed, it is not waited for: it would hold the account's stream for a
   * place the user has left.
   */
  private stillUsable(flight: InFlight): boolean {
    const { partial, typed } = flight;
    if (typed === '') return true;
    return partial !== '' && (partial.startsWith(typed) || typed.startsWith(partial));
  }
}
