// Writes a route's Reply to the socket, mangled by the request's fault if it has one. Keeping this
// in one place means every endpoint supports every fault the same way.
import type { ServerResponse } from 'node:http';
import type { Reply } from './http';
import { writable } from './http';
import { drained, writeSse, type StreamContext } from './sse';
import type { Fault } from './types';

interface Wire {
  status: number;
  contentType: string;
  body: Buffer;
  headers: Record<string, string>;
}

function toWire(reply: Exclude<Reply, { kind: 'sse' }>): Wire {
  if (reply.kind === 'bytes') return { status: reply.status, contentType: reply.contentType, body: reply.body, headers: {} };
  return {
    status: reply.status,
    contentType: 'application/json',
    body: Buffer.from(JSON.stringify(reply.body), 'utf8'),
    headers: reply.headers ?? {},
  };
}

/** Half of a JSON object or array is never valid JSON; binary bodies get a JSON-looking stub first. */
function brokenJson(wire: Wire): Buffer {
  const text = wire.contentType === 'application/json' ? wire.body.toString('utf8') : '{"object":"file","status":"ready"}';
  return Buffer.from(text.slice(0, Math.floor(text.length / 2)), 'utf8');
}

/** Valid JSON that none of the contract's shapes accept: no choices, data, access_token or array. */
const WRONG_SHAPE = Buffer.from('{"object":"unexpected","result":null,"messages":"none"}', 'utf8');

/** The body of a list answer without its last item (other bodies as they are). */
function oneItemShort(wire: Wire): Buffer {
  if (wire.contentType !== 'application/json') return wire.body;
  const value = JSON.parse(wire.body.toString('utf8')) as { data?: unknown };
  if (Array.isArray(value.data)) value.data.pop();
  return Buffer.from(JSON.stringify(value), 'utf8');
}

function send(res: ServerResponse, wire: Wire, body: Buffer): void {
  res.writeHead(wire.status, { ...wire.headers, 'Content-Type': wire.contentType, 'Content-Length': String(body.length) });
  res.end(body);
}

/** Filler for an endless body: valid inside a JSON string, an SSE data line or a picture's bytes alike. */
const FILLER = Buffer.alloc(64 * 1024, 'x');

async function writeEndless(res: ServerResponse, fault: Extract<Fault, { kind: 'endlessBody' }>, contentType: string, signal: AbortSignal): Promise<void> {
  const headers: Record<string, string> = { 'Content-Type': fault.contentType ?? contentType };
  if (fault.declaredLength !== undefined) headers['Content-Length'] = String(fault.declaredLength);
  res.writeHead(fault.status ?? 200, headers);
  if (fault.prefix) res.write(fault.prefix);
  while (!signal.aborted && writable(res)) {
    if (!res.write(FILLER)) await drained(res);
  }
}

export async function deliver(res: ServerResponse, reply: Reply, fault: Fault | undefined, stream: StreamContext): Promise<void> {
  const contentType = reply.kind === 'sse' ? 'text/event-stream' : reply.kind === 'bytes' ? reply.contentType : 'application/json';
  if (fault?.kind === 'endlessBody') return writeEndless(res, fault, contentType, stream.signal);
  if (fault?.kind === 'body') {
    const status = fault.status ?? (reply.kind === 'sse' ? 200 : reply.status);
    return send(res, { status, contentType: fault.contentType ?? contentType, body: Buffer.alloc(0), headers: {} }, Buffer.from(fault.body, 'utf8'));
  }
  if (reply.kind === 'sse') return writeSse(res, reply, fault, stream);
  const wire = toWire(reply);
  const ok: Wire = { status: 200, contentType: 'application/json', body: wire.body, headers: {} };
  switch (fault?.kind) {
    case 'malformedJson':
    case 'truncatedStream': // a non-stream body that ends early, cleanly, is simply broken JSON
      return send(res, ok, brokenJson(wire));
    case 'wrongShape':
      return send(res, ok, WRONG_SHAPE);
    case 'missingItem':
      return send(res, ok, oneItemShort(wire));
    case 'resetMidStream':
      // Promise the whole body, send half, then cut the connection.
      res.writeHead(wire.status, { ...wire.headers, 'Content-Type': wire.contentType, 'Content-Length': String(wire.body.length) });
      res.write(wire.body.subarray(0, Math.floor(wire.body.length / 2)), () => res.socket?.destroy());
      return;
    case 'stall':
      // Headers only, then silence until the client gives up.
      res.writeHead(wire.status, { ...wire.headers, 'Content-Type': wire.contentType, 'Content-Length': String(wire.body.length) });
      res.flushHeaders();
      return;
    default:
      return send(res, wire, wire.body);
  }
}
