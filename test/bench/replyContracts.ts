/**
 * What reading a streamed reply costs per delta on the service's current contract (v2: named
 * events, messages of content parts, usage apart) against the previous one (v1: `choices` deltas
 * up to `[DONE]`), for the same answer in the same run: the bytes parsed, validated, read into the
 * one reply shape and folded into the reply, as the chat does for each delta. Also what showing a
 * web answer's sources costs (its markers linked on every delta, as the panel's stream does).
 * Prints medians; asserts nothing (test/unit/core/service/client.contracts.test.ts checks what is read).
 *
 *   node out/test/bench/replyContracts.js [--runs 9] [--deltas 5000]
 */
import type { HttpResponse } from '../../src/core/network/http';
import { applyChunk, linkSourceMarkers, stableSourcePrefix, webSourceList, type ChatReply } from '../../src/core';
import { v1Chunks, v2Chunks } from '../../src/core/service/contract/replyStreams';
import { numberOption } from './options';
import { median } from './stats';

const runs = numberOption('runs', 9);
const deltas = numberOption('deltas', 5000);
/** A delta of a few words with a web answer's marker now and then, as the service streams them. */
const pieces = Array.from({ length: deltas }, (_, i) => (i % 40 === 39 ? ` faster [sources=[${(i % 3) + 1}]].` : ' and the JIT'));
const model = 'GigaChat-3-Ultra:32.3.18.5';
const sources = {
  '1': { url: 'https://docs.python.org/3/', title: 'Docs' },
  '2': { url: 'https://realpython.com/', title: 'News' },
  '3': { url: 'https://peps.python.org/', title: 'PEPs' },
};

function v1Wire(): Buffer {
  const events = pieces.map(
    (content) => `data: ${JSON.stringify({ choices: [{ delta: { content }, index: 0 }], created: 1, model, object: 'chat.completion' })}\n\n`,
  );
  const end = `data: ${JSON.stringify({ choices: [{ delta: { content: '' }, index: 0, finish_reason: 'stop' }], created: 1, model, usage: { prompt_tokens: 19, completion_tokens: 8, total_tokens: 27 } })}\n\ndata: [DONE]\n\n`;
  return Buffer.from(events.join('') + end);
}

function v2Wire(): Buffer {
  const events = pieces.map(
    (text) => `event: response.message.delta\ndata: ${JSON.stringify({ model, created_at: 1, messages: [{ role: 'assistant', content: [{ text }] }] })}\n\n`,
  );
  const last = `event: response.message.delta\ndata: ${JSON.stringify({ model, created_at: 1, messages: [{ role: 'assistant', content: [{ text: '', inline_data: { sources } }] }] })}\n\n`;
  const usage = { input_tokens: 19, input_tokens_details: { prompt_tokens: 19, cached_tokens: 0 }, output_tokens: 8, total_tokens: 27 };
  const done = `event: response.message.done\ndata: ${JSON.stringify({ model, created_at: 1, finish_reason: 'stop', usage })}\n\n`;
  return Buffer.from(events.join('') + last + done);
}

/** The bytes as undici hands them over: 16 KiB at a time. */
function response(bytes: Buffer): HttpResponse {
  async function* body(): AsyncGenerator<Uint8Array> {
    for (let at = 0; at < bytes.length; at += 16 * 1024) yield bytes.subarray(at, at + 16 * 1024);
  }
  return { status: 200, contentType: 'text/event-stream', body: body() } as unknown as HttpResponse;
}

/** Microseconds per delta to read the stream into the reply (and, with `shown`, to link its markers as the panel shows it). */
async function perDelta(read: typeof v1Chunks, bytes: Buffer, shown: boolean): Promise<number> {
  const started = performance.now();
  let reply: ChatReply = { content: '' };
  let visible = 0;
  for await (const chunk of read(response(bytes), 'https://bench.invalid/chat')) {
    reply = applyChunk(reply, chunk);
    if (shown) visible = linkSourceMarkers(stableSourcePrefix(reply.content), webSourceList(reply.sources)).length;
  }
  const elapsed = performance.now() - started;
  if (reply.content.length === 0 || (shown && visible === 0)) throw new Error('nothing was read');
  return (elapsed * 1000) / deltas;
}

async function main(): Promise<void> {
  const [v1, v2] = [v1Wire(), v2Wire()];
  const times = { v1: [] as number[], v2: [] as number[], shown: [] as number[] };
  for (let run = 0; run < runs; run++) {
    // Interleaved, so that load from other processes hits all alike.
    times.v1.push(await perDelta(v1Chunks, v1, false));
    times.v2.push(await perDelta(v2Chunks, v2, false));
    times.shown.push(await perDelta(v2Chunks, v2, true));
  }
  const [a, b, c] = [median(times.v1), median(times.v2), median(times.shown)];
  console.log(`${deltas} deltas (${(v1.length / 1024).toFixed(0)} KiB on v1, ${(v2.length / 1024).toFixed(0)} KiB on v2), medians of ${runs}:`);
  console.log(`  v1 reader        ${a.toFixed(2)} µs per delta`);
  console.log(`  v2 reader        ${b.toFixed(2)} µs per delta · ${(b - a >= 0 ? '+' : '') + (b - a).toFixed(2)} µs (${(b / a).toFixed(2)}×) against v1`);
  console.log(`  v2 + sources     ${c.toFixed(2)} µs per delta · +${(c - b).toFixed(2)} µs to link the markers of the reply so far`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
