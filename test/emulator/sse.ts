// Writes a streamed chat reply as server-sent events, the hard way on purpose: the bytes go out in
// random-size pieces (cut inside lines, JSON strings and UTF-8 characters), with a pause between
// writes, plus a comment and an `event:` line the client must ignore. Stream faults are applied here.
import type { ServerResponse } from 'node:http';
import { pause, writable } from './http';
import { randomInt, type Random } from './random';
import type { Fault, LiveOptions } from './types';

export interface StreamContext {
  options: LiveOptions;
  random: Random;
  /** Fires when the client closed the response or the emulator is stopping: stop writing at once. */
  signal: AbortSignal;
  /** Called once the headers are out, so the emulator can count the stream as open. */
  onOpen: (res: ServerResponse) => void;
}

type Ending = 'end' | 'destroy' | 'hang';

interface Planned {
  payloads: string[];
  /** The event names of the current contract's stream, one per payload. */
  names?: string[];
  ending: Ending;
}

/**
 * The events to send and how the stream finishes, after applying the fault if any. The previous
 * contract ends with `[DONE]`, the current one with its `response.message.done` event.
 */
function plan(chunks: object[], names: string[] | undefined, fault: Fault | undefined): Planned {
  const payloads = chunks.map((chunk) => JSON.stringify(chunk));
  const done = names ? [] : ['[DONE]'];
  const whole = (sent: string[]): Planned => ({ payloads: [...sent, ...done], names, ending: 'end' });
  const cut = (count: number, ending: Ending): Planned => ({ payloads: payloads.slice(0, count), names: names?.slice(0, count), ending });
  switch (fault?.kind) {
    case 'malformedJson': {
      const at = Math.min(1, payloads.length - 1);
      payloads[at] = payloads[at].slice(0, Math.floor(payloads[at].length / 2)); // a cut object is never valid JSON
      return whole(payloads);
    }
    case 'wrongShape':
      return whole(payloads.map(() => '{"object":"chat.completion","result":[],"messages":"none"}'));
    case 'truncatedStream':
      // Content only: no finish event and no end marker, then a clean end, as when a proxy cuts a stream.
      return cut(payloads.length - 1, 'end');
    case 'resetMidStream':
      return cut(Math.max(0, fault.afterEvents ?? 2), 'destroy');
    case 'stall':
      return cut(1, 'hang');
    case 'openAfterDone':
      return { ...whole(payloads), ending: 'hang' };
    default:
      return whole(payloads);
  }
}

/**
 * The wire text. Once per stream, deterministically: a `: keep-alive` comment after the first
 * event, and on the previous contract an `event: message` field line on the finish event (a valid
 * SSE field the client must skip).
 */
function serialize({ payloads, names }: Planned, finishIndex: number): string {
  return payloads
    .map((payload, index) => {
      const name = names ? names[index] : index === finishIndex ? 'message' : undefined;
      const field = name ? `event: ${name}\n` : '';
      const comment = index === 0 ? ': keep-alive\n\n' : '';
      return `${field}data: ${payload}\n\n${comment}`;
    })
    .join('');
}

export function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

export async function writeSse(
  res: ServerResponse,
  reply: { chunks: object[]; eventNames?: string[] },
  fault: Fault | undefined,
  context: StreamContext,
): Promise<void> {
  const planned = plan(reply.chunks, reply.eventNames, fault);
  const { ending } = planned;
  const bytes = Buffer.from(serialize(planned, reply.chunks.length - 1), 'utf8');

  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  res.flushHeaders();
  context.onOpen(res);

  const [min, max] = context.options.streamChunkBytes;
  for (let offset = 0; offset < bytes.length;) {
    if (context.signal.aborted || !writable(res)) return;
    const size = randomInt(context.random, Math.max(1, min), Math.max(1, min, max));
    if (!res.write(bytes.subarray(offset, offset + size))) await drained(res);
    offset += size;
    if (!(await pause(context.options.streamDelayMs, context.signal))) return;
  }

  if (ending === 'end') res.end();
  else if (ending === 'destroy') res.socket?.destroy();
  // 'hang': leave the response open; the server notices when the client finally goes away.
}
