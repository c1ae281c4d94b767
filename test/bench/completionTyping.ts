/**
 * Suggestions while typing, through the path the provider takes (the core's Suggester, the prompt,
 * the stream, the cleaning) against the emulator in this process at 100 ms of model latency:
 *   - what the extension adds (targets: p95 under 5 ms each): from the keystroke to the request's
 *     arrival at the service, the pause in typing excluded (asked as Alt+\ asks), in a 2,000-line
 *     file; and from the last streamed piece the answer needed to the suggestion handed back;
 *   - typing 200 characters of real code at 8 a second (quick within words, a pause at each word's
 *     end, as people type), with the default pause of 300 ms and suggestions that never match what
 *     is typed next: requests sent (target ≤ 30), and how many of those made stale were aborted
 *     (target 100%).
 * Prints; asserts nothing (test/unit/core/completion/suggester.test.ts checks the behaviour).
 *
 *   node out/test/bench/completionTyping.js [--samples 200]
 */
import * as fs from 'node:fs';
import { repoRoot } from '../unit/support/repoRoot';
import * as path from 'node:path';
import { ServiceClient, type CompletionRequest } from '../../src/core';
import { completeAt } from '../../src/core/completion/completeAt';
import { Suggester, type Ask } from '../../src/core/completion/suggester';
import { Emulator } from '../emulator';
import { clientOptionsFor } from '../unit/support/emulatorClient';
import { numberOption } from './options';
import { percentile } from './stats';

const samples = numberOption('samples', 200);
const LATENCY_MS = 100;
const DEBOUNCE_MS = 300;

const file = Array.from({ length: 2000 }, (_, i) => `export function f${i}(value: number): number {\n  return value * ${i};\n}`).join('\n');

function requestAt(prefix: string, suffix: string): () => Promise<CompletionRequest> {
  return () =>
    Promise.resolve({
      model: 'GigaChat-2',
      path: 'src/numbers.ts',
      languageId: 'typescript',
      text: prefix + suffix,
      offset: prefix.length,
      multiline: false,
      budgetChars: 4096,
      maxTokens: 48,
      indent: '  ',
    });
}

/** The client, with the time each streamed piece reached the caller noted (the last one is what the answer waited for). */
function timedClient(client: ServiceClient, pieces: number[]): Pick<ServiceClient, 'chatStream'> {
  return {
    chatStream: async function* (...args: Parameters<ServiceClient['chatStream']>) {
      for await (const chunk of client.chatStream(...args)) {
        pieces.push(performance.now());
        yield chunk;
      }
    },
  };
}

async function overhead(emulator: Emulator, client: ServiceClient): Promise<void> {
  const pieces: number[] = [];
  const timed = timedClient(client, pieces);
  const ask: Ask = (request, options) => completeAt(timed, request, options);
  const suggester = new Suggester();
  const [toRequest, toItems] = [[] as number[], [] as number[]];
  for (let i = 0; i < samples; i++) {
    const prefix = `${file}\nconst total${i} = `;
    pieces.length = 0;
    const started = performance.now();
    const suggestion = await suggester.suggest(
      { prefix, suffix: '\n', explicit: true, debounceMs: DEBOUNCE_MS },
      requestAt(prefix, '\n'),
      ask,
      new AbortController().signal,
    );
    const handedBack = performance.now();
    if (!suggestion) throw new Error('no suggestion: the bench measures nothing');
    toRequest.push(emulator.requests.at(-1)!.receivedAt - started);
    toItems.push(handedBack - pieces.at(-1)!);
  }
  const line = (what: string, values: number[]) =>
    `${what}: p50 ${percentile(values, 0.5).toFixed(2)} ms · p95 ${percentile(values, 0.95).toFixed(2)} ms (target p95 < 5 ms)`;
  console.log(line('keystroke to request at the service (no pause)', toRequest));
  console.log(line('last piece of the answer to suggestion handed back', toItems));
}

/** `text` typed one character at a time, 8 a second on average: a pause after each word (longer than the pause that asks), quick within words. */
function keystrokes(text: string): { typed: string; gapMs: number }[] {
  const boundary = (char: string) => /[\s(){};,.]/.test(char);
  const pauses = [...text].filter(boundary).length;
  const pauseMs = DEBOUNCE_MS + 30;
  const quickMs = Math.max(20, (text.length * 125 - pauses * pauseMs) / (text.length - pauses));
  return [...text].map((char, index) => ({ typed: text.slice(0, index + 1), gapMs: boundary(char) ? pauseMs : quickMs }));
}

async function typing(client: ServiceClient): Promise<void> {
  const outcomes: string[] = [];
  let sent = 0;
  const suggester = new Suggester({ sent: () => sent++, settled: (outcome) => outcomes.push(outcome) });
  const ask: Ask = (request, options) => completeAt(client, request, options);
  // Real code nobody here wrote, as someone would type it.
  const source = fs.readFileSync(path.join(repoRoot, 'node_modules/undici/lib/core/util.js'), 'utf8');
  const text = source.slice(source.indexOf('function '), source.indexOf('function ') + 200);
  const strokes = keystrokes(text);
  let shown = 0;
  let previous: AbortController | undefined;
  const calls: Promise<void>[] = [];
  const started = performance.now();
  for (const { typed, gapMs } of strokes) {
    // VS Code cancels the call of the keystroke before when the next one comes.
    previous?.abort();
    const cancel = (previous = new AbortController());
    const prefix = `${file}\n${typed}`;
    calls.push(
      suggester.suggest({ prefix, suffix: '\n', explicit: false, debounceMs: DEBOUNCE_MS }, requestAt(prefix, '\n'), ask, cancel.signal).then(
        (suggestion) => void (suggestion && !cancel.signal.aborted && shown++),
        () => undefined,
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
  await Promise.all(calls);
  while (outcomes.length < sent) await new Promise((resolve) => setTimeout(resolve, 10));
  const seconds = (performance.now() - started) / 1000;
  const aborted = outcomes.filter((outcome) => outcome === 'aborted').length;
  const unusedAnswered = outcomes.filter((outcome) => outcome === 'answered').length - shown;
  console.log(
    `typing ${strokes.length} characters in ${seconds.toFixed(1)} s (${(strokes.length / seconds).toFixed(1)} a second), pause ${DEBOUNCE_MS} ms: ` +
      `${outcomes.length} requests (target ≤ 30), ${shown} suggestions shown; of the ${aborted + Math.max(0, unusedAnswered)} made stale, ` +
      `${aborted} aborted (${((100 * aborted) / Math.max(1, aborted + Math.max(0, unusedAnswered))).toFixed(0)}%, target 100%)`,
  );
}

async function main(): Promise<void> {
  const emulator = await Emulator.start({ latencyMs: LATENCY_MS, streamDelayMs: 2 });
  const client = new ServiceClient(clientOptionsFor(emulator, { proxy: { url: '', noProxy: '*' } }));
  try {
    await overhead(emulator, client);
    await typing(client);
  } finally {
    await client.dispose();
    await emulator.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
