import { ServiceError } from '../serviceError';
import { redactUrl } from '../network/http';

/** One server-sent event: its name (`message` when it gave none) and its data lines joined. */
export interface SseEvent {
  event: string;
  data: string;
  /** The last event of a stream that ended before its blank line: it may have been cut off. */
  unterminated?: true;
}

/** The code of a reply stream that ended before it was complete: cut off between events or inside one. */
export const STREAM_CUT = 'STREAM_CUT';

/**
 * Server-sent events: bytes → each event that carries data, in order, until the stream ends.
 *
 * The network cuts the byte stream anywhere: inside a line, inside a JSON string, inside a
 * multi-byte UTF-8 character (Cyrillic is two bytes). So bytes are decoded as a stream, lines are
 * buffered across chunks, and an event is complete only at its blank line. Fields other than
 * `event:` and `data:` (comments, `id:`, keep-alives) are ignored, as the SSE format says.
 * Whether the stream was complete is for the caller to judge, by what it saw.
 */
export async function* sseEvents(bytes: AsyncIterable<Uint8Array>, maxEventChars = MAX_EVENT_CHARS): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder('utf-8');
  const lines = new LineSplitter();
  const event = new EventData(maxEventChars);

  for await (const chunk of bytes) {
    for (const line of lines.push(decoder.decode(chunk, { stream: true }))) {
      if (line === '') {
        const finished = event.take();
        if (finished) yield finished;
        continue;
      }
      event.add(parseField(line));
    }
    // A line that never ends is refused as it grows, not once it is whole: bytes keep coming, so
    // the read timeout would never stop it.
    event.check(lines.pendingLength);
  }
  // The final partial line (no terminator) and an event without its blank line still count.
  for (const line of lines.push(decoder.decode(), true)) event.add(parseField(line));
  const last = event.take();
  if (last) yield { ...last, unterminated: true };
}

/**
 * The previous contract's stream (`v1`): each event up to `[DONE]`. A stream that ends before
 * `[DONE]` throws a `protocol` error (STREAM_CUT) after yielding every event that did arrive, so
 * the caller keeps the text already received.
 */
export async function* sseData(bytes: AsyncIterable<Uint8Array>, maxEventChars = MAX_EVENT_CHARS): AsyncGenerator<SseEvent> {
  for await (const event of sseEvents(bytes, maxEventChars)) {
    if (event.data.trim() === '[DONE]') return;
    yield event;
  }
  throw streamEndedEarly('no [DONE] event');
}

/** The error of a reply stream that ended before its end marker (`what` names it), the text that came kept by the caller. */
export function streamEndedEarly(what: string): ServiceError {
  return new ServiceError('protocol', `The reply stream ended before it was complete (${what}).`, { code: STREAM_CUT });
}

/**
 * The longest event accepted, in characters of its data. A chat chunk is a few hundred characters
 * (a function call's arguments arrive whole, still far below this); anything longer is not the
 * service speaking, and holding it would cost the extension host memory and time without end.
 */
export const MAX_EVENT_CHARS = 4 * 1024 * 1024;

/** The `data` lines of the event being read, refused once they outgrow the limit. */
class EventData {
  private lines: string[] = [];
  private chars = 0;
  private name = '';

  constructor(private readonly maxChars: number) {}

  add(field: { name: string; value: string } | undefined): void {
    if (field?.name === 'event') this.name = field.value;
    if (field?.name !== 'data') return;
    this.lines.push(field.value);
    this.chars += field.value.length + 1;
    this.check(0);
  }

  /** Throws when the event so far, with `pending` characters of a line still arriving, is over the limit. */
  check(pending: number): void {
    if (this.chars + pending <= this.maxChars) return;
    throw new ServiceError(
      'protocol',
      `The reply stream carried an event longer than ${Math.round(this.maxChars / 1024 / 1024)} MiB, the limit for one event.`,
      {
        code: 'EVENT_TOO_LARGE',
        limitBytes: this.maxChars,
      },
    );
  }

  /** The event read so far, or undefined when it had no data; starts the next event. */
  take(): SseEvent | undefined {
    const name = this.name;
    this.name = '';
    if (this.lines.length === 0) return undefined;
    const data = this.lines.join('\n');
    this.lines = [];
    this.chars = 0;
    return { event: name || 'message', data };
  }
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
 * even when a `\r\n` pair is split between two chunks. Each piece of text is scanned once, and an
 * unfinished line is kept as its pieces until it ends: time and memory are linear in the input,
 * however long a line grows and however finely the network cuts it.
 */
export class LineSplitter {
  private pieces: string[] = [];
  private pending = 0;
  /** The last text ended in '\r': a '\n' that opens the next is the second half of that terminator. */
  private afterCarriageReturn = false;

  /** Characters of the line not yet ended. */
  get pendingLength(): number {
    return this.pending;
  }

  push(text: string, end = false): string[] {
    const lines: string[] = [];
    let start = 0;
    if (this.afterCarriageReturn && text.length > 0) {
      this.afterCarriageReturn = false;
      if (text.charCodeAt(0) === 10) start = 1;
    }
    for (let i = start; i < text.length; i++) {
      const char = text.charCodeAt(i);
      if (char !== 10 && char !== 13) continue;
      lines.push(this.finishLine(text.slice(start, i)));
      if (char === 13) {
        if (i + 1 === text.length) this.afterCarriageReturn = true;
        else if (text.charCodeAt(i + 1) === 10) i++;
      }
      start = i + 1;
    }
    if (start < text.length) {
      this.pieces.push(text.slice(start));
      this.pending += text.length - start;
    }
    if (end) {
      if (this.pending > 0) lines.push(this.finishLine(''));
      this.afterCarriageReturn = false;
    }
    return lines;
  }

  private finishLine(last: string): string {
    if (this.pieces.length === 0) return last;
    this.pieces.push(last);
    const line = this.pieces.join('');
    this.pieces = [];
    this.pending = 0;
    return line;
  }
}

/**
 * One event's data as JSON; anything else is a `protocol` error that quotes its start. The last
 * event of a stream that ended inside it is not malformed but cut off, and its error says so.
 */
export function parseEventJson({ data, unterminated }: SseEvent, url: string, requestId: string | undefined): unknown {
  try {
    return JSON.parse(data);
  } catch {
    if (unterminated) {
      throw new ServiceError('protocol', `The reply stream from ${redactUrl(url)} ended in the middle of an event: ${data.slice(0, 120)}`, {
        code: STREAM_CUT,
        requestId,
      });
    }
    throw new ServiceError('protocol', `The reply stream from ${redactUrl(url)} carried malformed JSON: ${data.slice(0, 120)}`, { requestId });
  }
}
