import * as assert from 'node:assert/strict';
import { sseData, LineSplitter } from '../../src/core/sse';
import { ServiceError } from '../../src/core';
import { randomSplits, seededRandom } from './support/random';

/** A recorded-style stream: Cyrillic (two bytes a letter), emoji (four), CRLF, comments, event lines. */
const events = [
  '{"choices":[{"delta":{"content":"Привет, ","role":"assistant"},"index":0}],"object":"chat.completion"}',
  '{"choices":[{"delta":{"content":"мир 👋 \\"quoted\\" : colon"},"index":0}],"object":"chat.completion"}',
  '{"choices":[{"delta":{"content":""},"index":0,"finish_reason":"stop"}],"usage":{"prompt_tokens":17,"completion_tokens":42,"total_tokens":59}}',
];
const wire = Buffer.from(
  `: keep-alive\r\nevent: message\r\ndata: ${events[0]}\r\n\r\nid: 1\ndata: ${events[1]}\n\n` + `data:${events[2]}\r\rdata: [DONE]\n\n`,
  'utf8',
);

async function* chunksOf(bytes: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    yield bytes.subarray(start, cut);
    start = cut;
  }
}

async function collect(source: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const data of source) out.push(data);
  return out;
}

describe('SSE parser', () => {
  it('yields each data payload in order and stops at [DONE]', async () => {
    assert.deepEqual(await collect(sseData(chunksOf(wire, []))), events);
  });

  it('gives identical events for hundreds of random splittings, including inside UTF-8 characters', async () => {
    const random = seededRandom(42);
    for (let run = 0; run < 400; run++) {
      const cuts = randomSplits(wire.length, 1 + Math.floor(random() * 40), random);
      assert.deepEqual(await collect(sseData(chunksOf(wire, cuts))), events, `cuts ${cuts.join(',')}`);
    }
  });

  it('survives a stream delivered one byte at a time', async () => {
    const cuts = Array.from({ length: wire.length - 1 }, (_, i) => i + 1);
    assert.deepEqual(await collect(sseData(chunksOf(wire, cuts))), events);
  });

  it('reports a stream that ends without [DONE] as a protocol error after yielding what arrived', async () => {
    const truncated = Buffer.from(`data: ${events[0]}\n\ndata: ${events[1]}\n\n`);
    const received: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const data of sseData(chunksOf(truncated, [17]))) received.push(data);
      })(),
      (error: unknown) => error instanceof ServiceError && error.kind === 'protocol',
    );
    assert.deepEqual(received, events.slice(0, 2));
  });

  it('joins multi-line data fields with newlines and splits fields on the first colon only', async () => {
    const bytes = Buffer.from('data: a: b\ndata:c\n\ndata: [DONE]\n\n');
    assert.deepEqual(await collect(sseData(chunksOf(bytes, [3, 9]))), ['a: b\nc']);
  });
});

describe('LineSplitter', () => {
  it('treats a CRLF split across chunks as one terminator', () => {
    const lines = new LineSplitter();
    assert.deepEqual(lines.push('one\r'), []);
    assert.deepEqual(lines.push('\ntwo\n'), ['one', 'two']);
  });
});
