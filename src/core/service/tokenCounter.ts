import { createHash } from 'node:crypto';
import type { Logger } from '../base/logger';
import type { TokenCount } from './schemas';
import { messageOf } from '../base/errorMessage';

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
  return tokensOfLength(text.length);
}

/** The estimate for a text of `characters` characters: a budget set in characters, in tokens. */
export function tokensOfLength(characters: number): number {
  return Math.ceil(characters / CHARACTERS_PER_TOKEN);
}

/**
 * Texts asked for together go in one request (`input` takes a list): VS Code's agent counts every
 * piece of its prompt (hundreds of texts per question), and an individual's key has one stream
 * (docs: service-api §12), so one request per text would queue the question behind its counts.
 */
const MAX_BATCH_TEXTS = 100;
const MAX_BATCH_CHARACTERS = 200_000;

interface Asked {
  key: string;
  text: string;
  resolve(tokens: number): void;
}

/**
 * Token counts as VS Code's prompt builders ask for them (`provideTokenCount`, many times per
 * request): from the service's tokenizer, cached, with the same text asked once while its answer
 * is on its way, and the texts asked for in the same turn of the event loop sent together. When
 * the service cannot answer (offline, no key, an error) the count is an estimate, not a failure: a
 * prompt builder must go on, and the request itself reports the error.
 */
export class TokenCounter {
  private readonly counts = new Map<string, Promise<number>>();
  /** Texts waiting to be sent, by model; sent once the current turn of the event loop is over. */
  private readonly waiting = new Map<string, Asked[]>();
  /** Counts are being estimated: said once in the log, not for every count. */
  private estimating = false;

  constructor(
    private readonly count: CountTokens,
    private readonly log: Logger,
  ) {}

  async tokens(model: string, text: string): Promise<number> {
    if (text === '') return 0;
    const key = cacheKey(model, text);
    const cached = this.counts.get(key);
    if (cached) {
      // Most recently used last, so the oldest is the one dropped.
      this.counts.delete(key);
      this.counts.set(key, cached);
      return cached;
    }
    const counted = new Promise<number>((resolve) => this.enqueue(model, { key, text, resolve }));
    this.counts.set(key, counted);
    if (this.counts.size > MAX_CACHED) this.counts.delete(this.counts.keys().next().value as string);
    return counted;
  }

  private enqueue(model: string, asked: Asked): void {
    const queue = this.waiting.get(model);
    if (queue) return void queue.push(asked);
    this.waiting.set(model, [asked]);
    setTimeout(() => {
      const all = this.waiting.get(model) ?? [];
      this.waiting.delete(model);
      for (const batch of batches(all)) void this.ask(model, batch);
    }, 0);
  }

  /** One request for a batch; a count that cannot be had is estimated, and not cached (the next question asks again). */
  private async ask(model: string, batch: Asked[]): Promise<void> {
    try {
      const counts = await this.count(
        batch.map((asked) => asked.text),
        { model },
      );
      batch.forEach((asked, index) => {
        const tokens = counts[index]?.tokens;
        if (typeof tokens === 'number' && Number.isFinite(tokens) && tokens >= 0) asked.resolve(tokens);
        else this.estimate(asked);
      });
      if (counts.length >= batch.length) this.estimating = false;
      else this.startEstimating('the service returned fewer counts than texts');
    } catch (error) {
      this.startEstimating(messageOf(error));
      for (const asked of batch) this.estimate(asked);
    }
  }

  private estimate(asked: Asked): void {
    this.counts.delete(asked.key);
    asked.resolve(estimateTokens(asked.text));
  }

  private startEstimating(reason: string): void {
    if (!this.estimating) this.log.info(`Token counts are estimated until the service answers again: ${reason}`);
    this.estimating = true;
  }
}

/** The texts in requests of a bounded size. */
function batches(all: Asked[]): Asked[][] {
  const out: Asked[][] = [];
  let current: Asked[] = [];
  let characters = 0;
  for (const asked of all) {
    if (current.length > 0 && (current.length >= MAX_BATCH_TEXTS || characters + asked.text.length > MAX_BATCH_CHARACTERS)) {
      out.push(current);
      current = [];
      characters = 0;
    }
    current.push(asked);
    characters += asked.text.length;
  }
  if (current.length > 0) out.push(current);
  return out;
}

function cacheKey(model: string, text: string): string {
  const body = text.length <= MAX_KEY_CHARACTERS ? text : createHash('sha256').update(text).digest('base64');
  return `${model}\u0000${text.length}\u0000${body}`;
}
