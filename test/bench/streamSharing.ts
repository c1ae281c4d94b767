/**
 * One account, one stream: a scripted day of use against the emulator, which refuses a request
 * beyond the account's streams with 429 as the service does, at 1 stream (a personal key) and at
 * 10 (a business key). Each run indexes in the background (N embedding batches, as many at once as
 * the account has streams), asks three questions at set times, and sends suggestions while the
 * user types (one per keystroke, the previous one stopped). Prints, against the goals of issue 39:
 *   - requests the service refused (429) per 100 sent (goal ≤ 1);
 *   - 429s that reached the user: a question's error (goal 0);
 *   - the time other work added to a question's first text, against the same question alone
 *     (goal ≤ the remaining time of one background request: at most one batch's duration);
 *   - indexing throughput against the stream time the foreground work left free (goal ≥ 90%): the
 *     stream time a batch takes when the same indexing runs alone, in the same run, is the baseline.
 *
 *   node out/test/bench/streamSharing.js [--batches-per-stream 40] [--latency-ms 150]
 */
import { ServiceClient, ServiceError, StreamScheduler, type StreamPriority } from '../../src/core';
import { Emulator, SERVICE_STREAMS } from '../emulator';
import { clientOptionsFor } from '../unit/support/emulatorClient';
import { numberOption } from './options';
import { median } from './stats';

const batchesPerStream = numberOption('batches-per-stream', 30);
const latencyMs = numberOption('latency-ms', 150);
/** When the questions are asked and the typing starts, in ms after the indexing started (a question while a suggestion holds the stream is not background's doing). */
const QUESTIONS_AT = [1_000, 3_500, 5_500];
const TYPING_AT = 2_000;
const KEYSTROKES = 8;
const KEYSTROKE_MS = 100;
const TEXTS = Array.from({ length: 16 }, (_, i) => `function part${i}() { return ${i}; }`);
const QUESTION = { model: 'GigaChat', messages: [{ role: 'user' as const, content: 'What does a stream scheduler do?' }] };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Stream time held by each priority, in ms, integrated from the scheduler's changes. */
function heldTime(scheduler: StreamScheduler): { held: Record<StreamPriority, number>; stop: () => void } {
  const held = { now: 0, typing: 0, background: 0 };
  let serving = scheduler.activity().serving;
  let at = performance.now();
  const stop = scheduler.onDidChange((activity) => {
    const now = performance.now();
    for (const priority of ['now', 'typing', 'background'] as const) held[priority] += serving[priority] * (now - at);
    at = now;
    serving = activity.serving;
  });
  return { held, stop };
}

/** Time to the first text of a question, and how long it waited for a stream, in ms; throws what the user would see. */
async function ask(client: ServiceClient): Promise<{ first: number; waited: number }> {
  const started = performance.now();
  let first: number | undefined;
  let waited = 0;
  let waitFrom = 0;
  const onWait = (waiting: boolean) => {
    if (waiting) waitFrom = performance.now();
    else waited += performance.now() - waitFrom;
  };
  for await (const chunk of client.chatStream(QUESTION, { priority: 'now', onWait })) {
    if (first === undefined && chunk.choices[0]?.delta.content) first = performance.now() - started;
  }
  return { first: first ?? NaN, waited };
}

/** Indexes `batches` batches, `streams` at once, as background work; resolves with the time it took, in ms. */
async function index(client: ServiceClient, streams: number, batches: number): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: streams }, async () => {
      while (next < batches) {
        next += 1;
        await client.embeddings(TEXTS, { priority: 'background' });
      }
    }),
  );
  return performance.now() - started;
}

async function day(streams: number, scope: string): Promise<void> {
  const emulator = await Emulator.start({ latencyMs, streamsPerScope: SERVICE_STREAMS, streamDelayMs: 5 });
  const scheduler = new StreamScheduler({ streams });
  const client = new ServiceClient(clientOptionsFor(emulator, { scope, scheduler, timeoutMs: 30_000 }));
  try {
    // Alone first, on an idle account: one batch, and the question's first text.
    const batchAlone: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      await client.embeddings(TEXTS, { priority: 'background' });
      batchAlone.push(performance.now() - started);
    }
    const alone: number[] = [];
    for (let i = 0; i < 3; i++) alone.push((await ask(client)).first);
    const batchMs = median(batchAlone);
    const aloneMs = median(alone);
    const batches = batchesPerStream * streams;
    const indexAloneMs = await index(client, streams, batches);
    const streamTimePerBatch = (streams * indexAloneMs) / batches;
    emulator.resetCounts();
    const refusedBefore = emulator.refusedForStreams;

    const held = heldTime(scheduler);
    const indexing = index(client, streams, batches);
    const shownToUser: string[] = [];
    const questions = QUESTIONS_AT.map(async (at) => {
      await sleep(at);
      try {
        return await ask(client);
      } catch (error) {
        shownToUser.push((error as ServiceError).kind ?? String(error));
        return { first: NaN, waited: NaN };
      }
    });
    const suggestions = { sent: 0, skipped: 0, answered: 0 };
    const typing = (async () => {
      await sleep(TYPING_AT);
      let previous: AbortController | undefined;
      const pending: Promise<void>[] = [];
      for (let key = 0; key < KEYSTROKES; key++) {
        previous?.abort();
        const abort = (previous = new AbortController());
        suggestions.sent += 1;
        pending.push(
          (async () => {
            try {
              for await (const _ of client.chatStream(QUESTION, { priority: 'typing', maxWaitMs: KEYSTROKE_MS, maxRetries: 0, signal: abort.signal })) void _;
              suggestions.answered += 1;
            } catch {
              suggestions.skipped += 1; // skipped for no free stream, or stopped by the next keystroke
            }
          })(),
        );
        await sleep(KEYSTROKE_MS);
      }
      await Promise.all(pending);
    })();
    const indexingMs = await indexing;
    const foregroundHeld = held.held.now + held.held.typing; // read as indexing ended: the window compared
    const firstTexts = await Promise.all(questions);
    await typing;
    held.stop();

    const sent = emulator.count('embeddings') + emulator.count('chat');
    const refused = emulator.refusedForStreams - refusedBefore;
    const added = firstTexts.map(({ first }) => first - aloneMs);
    const waited = firstTexts.map((question) => question.waited);
    const free = streams * indexingMs - foregroundHeld;
    const ideal = free / streamTimePerBatch;
    console.log(`\n${streams} stream${streams === 1 ? '' : 's'} (${scope}): ${batches} batches, ${QUESTIONS_AT.length} questions, ${KEYSTROKES} keystrokes`);
    console.log(`  refused by the service (429):  ${((refused / sent) * 100).toFixed(2)} per 100 sent (${refused} of ${sent})   goal ≤ 1`);
    console.log(
      `  429s shown to the user:        ${shownToUser.filter((kind) => kind === 'rateLimit').length}${shownToUser.length ? ` (errors: ${shownToUser.join(', ')})` : ''}   goal 0`,
    );
    console.log(
      `  first text of a question:      alone ${aloneMs.toFixed(0)} ms; added by other work ${added.map((ms) => ms.toFixed(0)).join(', ')} ms (max ${Math.max(...added).toFixed(0)})   goal ≤ one batch, ${batchMs.toFixed(0)} ms`,
    );
    console.log(
      `  of which waiting for a stream: ${waited.map((ms) => ms.toFixed(0)).join(', ')} ms (the rest: the emulator and client sharing this process's CPU with the other work)`,
    );
    console.log(`  suggestions:                   ${suggestions.answered} answered, ${suggestions.skipped} skipped or stopped, of ${suggestions.sent}`);
    console.log(
      `  indexing throughput:           ${batches} batches in ${(indexingMs / 1000).toFixed(2)} s; ${((batches / ideal) * 100).toFixed(0)}% of the ${ideal.toFixed(0)} the free stream time allows (${(free / 1000).toFixed(2)} s of ${((streams * indexingMs) / 1000).toFixed(2)} s; alone ${(indexAloneMs / 1000).toFixed(2)} s)   goal ≥ 90%`,
    );
  } finally {
    scheduler.dispose();
    await client.dispose();
    await emulator.stop();
  }
}

async function main(): Promise<void> {
  console.log(`emulator latency ${latencyMs} ms per request; streams refused beyond the account's as the service does`);
  await day(1, 'GIGACHAT_API_PERS');
  await day(10, 'GIGACHAT_API_B2B');
}

void main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
