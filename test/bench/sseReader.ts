/**
 * The streamed-reply reader on one long event versus the same bytes as many short events: the
 * reader's time must grow with the bytes, not with the square of a line's length (a server or proxy
 * that sends one huge line would otherwise block the extension host, which every extension shares).
 * Target: an event of up to the 4 MiB limit costs at most 2× the same bytes in short events.
 * Prints medians; asserts nothing (test/unit/core/service/sse.test.ts checks the events and the limit).
 *
 *   node out/test/bench/sseReader.js [--runs 9]
 */
import { MAX_EVENT_CHARS, sseData } from '../../src/core/service/sse';
import { numberOption } from './options';
import { median } from './stats';

const runs = numberOption('runs', 9);
/** What undici hands over at a time on a fast connection, and what a slow one trickles. */
const CHUNK_SIZES = [64 * 1024, 1024];
/** A short event's data: about a chat delta's size. */
const SHORT_EVENT_CHARS = 200;

function wire(eventChars: number, eventCount: number): Buffer {
  const event = `data: ${'x'.repeat(eventChars)}\n\n`;
  return Buffer.from(event.repeat(eventCount) + 'data: [DONE]\n\n');
}

async function* chunked(bytes: Buffer, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function timeRead(bytes: Buffer, chunkSize: number): Promise<number> {
  const started = performance.now();
  let events = 0;
  for await (const _ of sseData(chunked(bytes, chunkSize))) events++;
  const elapsed = performance.now() - started;
  if (events === 0) throw new Error('no event was read');
  return elapsed;
}

async function main(): Promise<void> {
  const longChars = MAX_EVENT_CHARS - 1;
  const long = wire(longChars, 1);
  const short = wire(SHORT_EVENT_CHARS, Math.round(longChars / (SHORT_EVENT_CHARS + 8)));
  console.log(
    `one event of ${(long.length / 1024 / 1024).toFixed(1)} MiB versus ${(short.length / 1024 / 1024).toFixed(1)} MiB of ${SHORT_EVENT_CHARS}-character events`,
  );
  for (const chunkSize of CHUNK_SIZES) {
    const times = { long: [] as number[], short: [] as number[] };
    for (let run = 0; run < runs; run++) {
      // Interleaved, so that load from other processes hits both alike.
      times.long.push(await timeRead(long, chunkSize));
      times.short.push(await timeRead(short, chunkSize));
    }
    const [l, s] = [median(times.long), median(times.short)];
    console.log(
      `chunks of ${String(chunkSize).padStart(5)} bytes: long event ${l.toFixed(1)} ms · short events ${s.toFixed(1)} ms · ratio ${(l / s).toFixed(2)}× (target ≤ 2×; medians of ${runs})`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
