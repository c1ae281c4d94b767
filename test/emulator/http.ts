// Small HTTP helpers shared by the server and the routes: the reply model, error bodies in the two
// formats the contract uses, body reading and abortable pauses.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setImmediate as immediate, setTimeout as sleep } from 'node:timers/promises';

/**
 * What a route answers. Routes return data instead of writing to the socket themselves, so the
 * fault layer can mangle any answer the same way (cut it, break its JSON, stall it...).
 */
export type Reply =
  | { kind: 'json'; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'bytes'; status: number; contentType: string; body: Buffer }
  /** Chat chunks; the last one is the finish chunk (empty delta, finish_reason, usage). */
  /** Server-sent events: one per chunk, named by `eventNames` on the current contract, else ending in [DONE]. */
  | { kind: 'sse'; chunks: object[]; eventNames?: string[] };

/** The model host's default error messages, worded as in the contract. */
const MESSAGES: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Permission denied',
  404: 'Not found',
  405: 'Method not allowed',
  413: 'Payload too large',
  422: 'Invalid params',
  429: 'Too many requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function defaultMessage(status: number): string {
  return MESSAGES[status] ?? 'Error';
}

/** Model host errors: {"status": <int>, "message": "<text>"}. */
export function modelError(status: number, message = defaultMessage(status)): Reply {
  return { kind: 'json', status, body: { status, message } };
}

/** Token endpoint errors: {"code": <int>, "message": "<text>"} with the service's own codes. */
export function oauthError(status: number, code: number, message: string): Reply {
  return { kind: 'json', status, body: { code, message } };
}

export function json(body: unknown, status = 200): Reply {
  return { kind: 'json', status, body };
}

/** The whole request body as bytes: JSON routes read it as UTF-8 text, the file upload as a multipart form. */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}

/** One header value (Node gives arrays for repeated headers; the first one wins here). */
export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** JSON.parse that reports failure as undefined instead of throwing: bad input is a 4xx, not a crash. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Waits ms (0 still yields to the event loop). Resolves false when the signal fired first,
 * so callers stop writing as soon as the client has gone or the emulator is stopping.
 */
export async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  try {
    if (ms > 0) await sleep(ms, undefined, { signal });
    else await immediate(undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

/** True while writing to the response still makes sense. */
export function writable(res: ServerResponse): boolean {
  return !res.destroyed && !res.writableEnded;
}
