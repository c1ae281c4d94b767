import { createHash } from 'node:crypto';
import type { Logger } from './logger';
import type { TokenCount } from './schemas';

/** What counting needs of the client: `POST /tokens/count`. */
export type CountTokens = (input: readonly string[], options: { model: string; signal?: AbortSignal }) => Promise<TokenCount[]>;

/**
 * About how many characters make a token: GigaChat's tokenizer gives about 4 for English and code
 * and about 3 for Russian; the estimate takes the smaller, so a prompt built from it fits.
 */
const CHARACTERS_PER_TOKEN = 3;

/** Counts are cached per model and text: prompt builders ask for the same messages again and again. */
const MAX_CACHED = 5_000;

/** Texts longer than this are cached under their hash rather than kept whole as a key. */
const MAX_KEY_CHARACTERS = 256;

/** A count from the length alone, for when the service cannot be asked. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARACTERS_PER_TOKEN);
}

/**
 * Token counts as VS Code's prompt builders ask for them (`provideTokenCount`, many times per
 * request): from the service's tokenizer, cached, with the same text asked once while its answer
 * is on its way. When the service cannot answer (offline, no key, an error) the count is an
 * estimate, not a failure: a prompt builder must go on, and the request itself reports the error.
 */
export class TokenCounter {
  private readonly counts = new Map<string, Promise<number>>();
  /** Counts are being estimated: said once in the log, not for every count. */
  private estimating = false;

  constructor(
    private readonly count: CountTokens,
    private readonly log: Logger,
  ) {}

  async tokens(model: string, text: string, signal?: AbortSignal): Promise<number> {
    if (text === '') return 0;
    const key = cacheKey(model, text);
    const cached = this.counts.get(key);
    if (cached) {
      // Most recently used last, so the oldest is the one dropped.
      this.counts.delete(key);
      this.counts.set(key, cached);
      return cached;
    }
    const counted = this.ask(key, model, text, signal);
    this.counts.set(key, counted);
    if (this.counts.size > MAX_CACHED) this.counts.delete(this.counts.keys().next().value as string);
    return counted;
  }

  private async ask(key: string, model: string, text: string, signal?: AbortSignal): Promise<number> {
    try {
      const [count] = await this.count([text], { model, signal });
      if (count && Number.isFinite(count.tokens) && count.tokens >= 0) {
        this.estimating = false;
        return count.tokens;
      }
      throw new Error('the service returned no count');
    } catch (error) {
      // Not cached: the next question asks the service again (it may be back, or the key set).
      this.counts.delete(key);
      if (!this.estimating) this.log.info(`Token counts are estimated until the service answers again: ${(error as Error).message}`);
      this.estimating = true;
      return estimateTokens(text);
    }
  }
}

function cacheKey(model: string, text: string): string {
  const body = text.length <= MAX_KEY_CHARACTERS ? text : createHash('sha256').update(text).digest('base64');
  return `${model}\u0000${text.length}\u0000${body}`;
}
