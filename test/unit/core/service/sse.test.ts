import * as assert from 'node:assert/strict';
import { sseData, LineSplitter, MAX_EVENT_CHARS } from '../../../../src/core/service/sse';
import { ServiceError } from '../../../../src/core';
import { randomSplits, seededRandom } from '../../support/random';

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

async function collect(source: AsyncIterable<{ data: string }>): Promise<string[]> {
  const out: string[] = [];
  for await (const { data } of source) out.push(data);
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
        for await (const { data } of sseData(chunksOf(truncated, [17]))) received.push(data);
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

/** `total` characters of `piece` repeated, in chunks of `chunkBytes`; counts what the reader pulled. */
function endless(piece: string, chunkBytes: number, total: number): { source: AsyncGenerator<Uint8Array>; pulled: () => number } {
  const chunk = Buffer.from(piece.repeat(Math.ceil(chunkBytes / piece.length)).slice(0, chunkBytes));
  let pulled = 0;
  async function* source(): AsyncGenerator<Uint8Array> {
    yield Buffer.from(`data: ${events[0]}\n\n`);
    while (pulled < total) {
      pulled += chunk.length;
      yield chunk;
    }
  }
  return { source: source(), pulled: () => pulled };
}

describe('SSE parser limits', () => {
  it('refuses a line that never ends once it passes the event limit, keeping the events before it', async () => {
    // A broken or hostile server: bytes keep coming, so the read timeout never fires.
    const { source, pulled } = endless('data: ' + 'x'.repeat(1000), 64 * 1024, 64 * 1024 * 1024);
    const received: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const { data } of sseData(source)) received.push(data);
      })(),
      (error: unknown) =>
        error instanceof ServiceError && error.kind === 'protocol' && error.code === 'EVENT_TOO_LARGE' && error.limitBytes === MAX_EVENT_CHARS,
    );
    assert.deepEqual(received, [events[0]]);
    assert.ok(pulled() <= MAX_EVENT_CHARS + 2 * 64 * 1024, `read ${pulled()} bytes before refusing`);
  });

  it('refuses an event of endless short data lines that never reaches its blank line', async () => {
    const { source, pulled } = endless('data: 0123456789\n', 16 * 1024, 64 * 1024 * 1024);
    await assert.rejects(collect(sseData(source)), (error: unknown) => error instanceof ServiceError && error.code === 'EVENT_TOO_LARGE');
    // Each 17-byte line adds 11 characters of data (10 and the newline that joins them).
    assert.ok(pulled() <= (MAX_EVENT_CHARS * 17) / 11 + 16 * 1024, `read ${pulled()} bytes before refusing`);
  });

  it('accepts an event just under the limit, cut into small chunks, whole', async () => {
    const data = 'я'.repeat(MAX_EVENT_CHARS - 1);
    const wire = Buffer.from(`data: ${data}\r\n\r\ndata: [DONE]\n\n`);
    const cuts = Array.from({ length: Math.floor(wire.length / 4093) }, (_, i) => (i + 1) * 4093);
    const received = await collect(sseData(chunksOf(wire, cuts)));
    assert.equal(received.length, 1);
    assert.ok(received[0] === data, 'the long event arrived changed');
  });
});

describe('LineSplitter', () => {
  it('treats a CRLF split across chunks as one terminator', () => {
    const lines = new LineSplitter();
    const received = [...lines.push('one\r'), ...lines.push('\ntwo\n')];
    assert.deepEqual(received, ['one', 'two']);
  });

  it('keeps a lone CR, a CR before an empty chunk, and a final unterminated line', () => {
    const lines = new LineSplitter();
    const received = [...lines.push('a\rb\r'), ...lines.push(''), ...lines.push('\n\nc'), ...lines.push('d', true)];
    assert.deepEqual(received, ['a', 'b', '', 'cd']);
    assert.equal(lines.pendingLength, 0);
  });
});
