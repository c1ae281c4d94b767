/**
 * What suggestions as you type add to the service's latency, on their core path against the
 * emulator at a fixed 100 ms latency (the user feels the service's time plus this):
 *   - asked: the time from the keystroke's request to the cleaned suggestion (the prompt built from
 *     a 2,000-line file, the stream read until the answer's closing tag, the reply cleaned), against
 *     the same messages asked directly and read to their end, interleaved;
 *   - typed into: the time to answer from the cache while the user types what is suggested.
 * Prints medians; asserts nothing (test/unit/core/completion/completeAt.test.ts checks what is suggested).
 *
 *   node out/test/bench/completionLatency.js [--requests 60]
 */
import { collectReply, CompletionCache, ServiceClient, type CompletionRequest } from '../../src/core';
import { completeAt } from '../../src/core/completion/completeAt';
import { fillMessages } from '../../src/core/completion/fillPrompt';
import { Emulator } from '../emulator';
import { clientOptionsFor } from '../unit/support/emulatorClient';
import { numberOption } from './options';
import { median } from './stats';

const requests = numberOption('requests', 60);
const LATENCY_MS = 100;

const file = Array.from({ length: 2000 }, (_, i) => `export function f${i}(value: number): number {\n  return value * ${i};\n}`).join('\n');
const text = `${file}\nfunction area(r) {\n}\n`;
const request: CompletionRequest = {
  model: 'GigaChat-2',
  path: 'src/area.ts',
  languageId: 'typescript',
  text,
  offset: text.length - 3,
  multiline: true,
  budgetChars: 4096,
  maxTokens: 160,
  indent: '  ',
};

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

async function main(): Promise<void> {
  const emulator = await Emulator.start({ latencyMs: LATENCY_MS, streamDelayMs: 2 });
  const client = new ServiceClient(clientOptionsFor(emulator, { proxy: { url: '', noProxy: '*' } }));
  try {
    const direct: number[] = [];
    const asked: number[] = [];
    const messages = fillMessages(request);
    for (let i = 0; i < requests; i++) {
      direct.push(
        await timed(() => collectReply(client.chatStream({ model: request.model, messages, max_tokens: request.maxTokens }, { sessionId: 'bench' }))),
      );
      asked.push(await timed(() => completeAt(client, request, { sessionId: 'bench' })));
    }
    const [d, a] = [median(direct), median(asked)];
    console.log(
      `a suggestion at ${LATENCY_MS} ms of service latency: asked directly ${d.toFixed(1)} ms · as a suggestion ${a.toFixed(1)} ms · ${a - d >= 0 ? 'added' : 'saved'} ${Math.abs(a - d).toFixed(1)} ms (medians of ${requests})`,
    );
    const suggestion = (await completeAt(client, request, {})).text;
    const cache = new CompletionCache();
    const prefix = text.slice(0, request.offset);
    cache.set(prefix, text.slice(request.offset), suggestion);
    const typed: number[] = [];
    for (let i = 1; i < Math.min(suggestion.length, 40); i++) {
      const started = performance.now();
      if (cache.get(prefix + suggestion.slice(0, i), text.slice(request.offset)) === undefined) throw new Error('the cache missed a suggestion being typed');
      typed.push((performance.now() - started) * 1000);
    }
    console.log(`typing what is suggested: answered from the cache in ${median(typed).toFixed(1)} µs a keystroke (no request)`);
  } finally {
    await client.dispose();
    await emulator.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
