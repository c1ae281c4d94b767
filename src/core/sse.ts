import { ServiceError } from './errors';

/**
 * Server-sent events: bytes → the `data` payload of each event, in order, up to `[DONE]`.
 *
 * The network cuts the byte stream anywhere: inside a line, inside a JSON string, inside a
 * multi-byte UTF-8 character (Cyrillic is two bytes). So bytes are decoded as a stream, lines are
 * buffered across chunks, and an event is complete only at its blank line. Lines that are not
 * `data:` (comments, `event:`, `id:`, keep-alives) are ignored, as the SSE format says.
 *
 * A stream that ends before `[DONE]` throws a `protocol` error after yielding every event that did
 * arrive, so the caller keeps the text already received.
 */
export async function* sseData(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  const lines = new LineSplitter();
  let data: string[] = [];

  for await (const chunk of bytes) {
    for (const line of lines.push(decoder.decode(chunk, { stream: true }))) {
      if (line === '') {
        if (data.length === 0) continue;
        const payload = data.join('\n');
        data = [];
        if (payload.trim() === '[DONE]') return;
        yield payload;
        continue;
      }
      const field = parseField(line);
      if (field?.name === 'data') data.push(field.value);
    }
  }
  // The final partial line (no terminator) and an event without its blank line still count.
  for (const line of lines.push(decoder.decode(), true)) {
    const field = parseField(line);
    if (field?.name === 'data') data.push(field.value);
  }
  if (data.length > 0) {
    const payload = data.join('\n');
    if (payload.trim() === '[DONE]') return;
    yield payload;
  }
  throw new ServiceError('protocol', 'The reply stream ended before it was complete (no [DONE] event).');
}

/** Splits a field line on its first colon; one space after the colon belongs to the syntax. */
function parseField(line: string): { name: string; value: string } | undefined {
  if (line.startsWith(':')) return undefined; // a comment, used as keep-alive
  const colon = line.indexOf(':');
  if (colon === -1) return { name: line, value: '' };
  const value = line.slice(colon + 1);
  return { name: line.slice(0, colon), value: value.startsWith(' ') ? value.slice(1) : value };
}

/**
 * Buffers text and hands out complete lines, whatever terminator (`\n`, `\r\n`, `\r`) ends them,
 * even when a `\r\n` pair is split between two chunks.
 */
export class LineSplitter {
  private buffer = '';

  push(text: string, end = false): string[] {
    this.buffer += text;
    const lines: string[] = [];
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const char = this.buffer.charCodeAt(i);
      if (char !== 10 && char !== 13) continue;
      // A trailing '\r' may be the first half of '\r\n': wait for the next chunk to know.
      if (char === 13 && i === this.buffer.length - 1 && !end) break;
      lines.push(this.buffer.slice(start, i));
      if (char === 13 && this.buffer.charCodeAt(i + 1) === 10) i++;
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
    if (end && this.buffer !== '') {
      lines.push(this.buffer);
      this.buffer = '';
    }
    return lines;
  }
}
