import type { z } from 'zod';
import { ServiceError, kindForStatus } from '../serviceError';
import { MAX_IMAGE_BYTES } from '../../serviceFacts/fileFacts';
import { discardBody, redactUrl, type HttpResponse } from '../network/http';
import { redactSecrets } from '../base/redact';
import { ErrorBody } from './schemas';
import { describeBrokenAnswer } from '../network/transportErrors';

/**
 * Reading what the service answered: bodies within their size limit, JSON checked against its
 * schema, and error bodies turned into the error for their status. Nothing here quotes more than a
 * short, masked excerpt of a body.
 */

const KiB = 1024;
const MiB = 1024 * KiB;

/** The most of one kind of answer that is read: a broken or hostile server (or proxy) cannot make the extension host hold more. */
export interface BodyLimit {
  bytes: number;
  /** What the answer is, for the log: `a picture`. */
  what: string;
  /** The error's code when an answer is larger. */
  code: 'RESPONSE_TOO_LARGE' | 'PICTURE_TOO_LARGE';
}

export const BODY_LIMITS = {
  /** JSON answers. The largest real one is a batch of embeddings (90 texts × 1,024 numbers, about 2 MB). */
  json: { bytes: 16 * MiB, what: 'a JSON answer', code: 'RESPONSE_TOO_LARGE' },
  /** The token exchange's answer: a token and its expiry. */
  token: { bytes: 64 * KiB, what: 'an access token answer', code: 'RESPONSE_TOO_LARGE' },
  /** A generated picture: no larger than the service lets an image be. */
  picture: { bytes: MAX_IMAGE_BYTES, what: 'a picture', code: 'PICTURE_TOO_LARGE' },
} as const satisfies Record<string, BodyLimit>;

/** Of an error's body only this much is read: its message, or the start of whatever else came. */
const ERROR_BODY_BYTES = 64 * KiB;

/**
 * Reads a whole body of at most `limit` bytes. A larger one (declared, or as it arrives) is not read
 * on: the connection is closed and a `protocol` error names the limit. Failures mid-body become
 * network/timeout/cancelled errors.
 */
export async function readBody(res: HttpResponse, url: string, limit: BodyLimit, signal?: AbortSignal): Promise<Buffer> {
  if (res.contentLength !== undefined && res.contentLength > limit.bytes) {
    discardBody(res);
    throw tooLarge(res, url, limit);
  }
  const body = await readUpTo(res, url, limit.bytes, signal);
  if (body.complete) return body.bytes;
  throw tooLarge(res, url, limit);
}

/** The first `maxBytes` of a body (all of it when shorter); the rest is let go unread. */
async function readUpTo(res: HttpResponse, url: string, maxBytes: number, signal?: AbortSignal): Promise<{ bytes: Buffer; complete: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body) {
      const bytes = chunk as Buffer;
      if (size + bytes.length > maxBytes) {
        chunks.push(bytes.subarray(0, maxBytes - size));
        discardBody(res);
        return { bytes: Buffer.concat(chunks), complete: false };
      }
      chunks.push(bytes);
      size += bytes.length;
    }
    return { bytes: Buffer.concat(chunks), complete: true };
  } catch (error) {
    throw describeBrokenAnswer(error, url, signal).withRequestId(res.requestId);
  }
}

function tooLarge(res: HttpResponse, url: string, limit: BodyLimit): ServiceError {
  return new ServiceError('protocol', `${redactUrl(url)} answered with ${limit.what} larger than ${formatBytes(limit.bytes)}, the most accepted for it.`, {
    code: limit.code,
    limitBytes: limit.bytes,
    status: res.status,
    requestId: res.requestId,
  });
}

export interface ReadJsonOptions {
  signal?: AbortSignal;
  /** Default `BODY_LIMITS.json`. */
  limit?: BodyLimit;
  /** Whether an unreadable body may be quoted in the error: never for one that may hold a secret (a token answer). */
  quoteBody?: boolean;
}

/** Parses a JSON body with its schema; anything else is a `protocol` error that says what was wrong. */
export async function readJson<T extends z.ZodType>(res: HttpResponse, schema: T, url: string, options: ReadJsonOptions = {}): Promise<z.infer<T>> {
  const { signal, limit = BODY_LIMITS.json, quoteBody = true } = options;
  // A byte-order mark is not JSON, but some servers and proxies put one before it: it says nothing.
  const text = (await readBody(res, url, limit, signal)).toString('utf8').replace(/^\uFEFF/, '');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const shown = quoteBody ? `: ${preview(text)}` : ` (${text.length} characters, not shown: they may hold a secret)`;
    throw new ServiceError('protocol', `The service answered ${redactUrl(url)} with invalid JSON${shown}`, { requestId: res.requestId, status: res.status });
  }
  return parseShape(schema, value, url, res.requestId);
}

export function parseShape<T extends z.ZodType>(schema: T, value: unknown, url: string, requestId?: string): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`)
    .join('; ');
  throw new ServiceError('protocol', `The service's answer to ${redactUrl(url)} has an unexpected shape (${issues}).`, { requestId });
}

/** Turns a non-2xx response into the error for its status, with the service's own message. */
export async function errorFromResponse(res: HttpResponse, url: string, signal?: AbortSignal): Promise<ServiceError> {
  const { message: said, serviceMessage } = await readErrorBody(res, url, signal);
  const message = `${redactUrl(url)} answered ${res.status}${said ? `: ${said}` : ''}`;
  return new ServiceError(kindForStatus(res.status), message, {
    status: res.status,
    requestId: res.requestId,
    retryAfterMs: res.retryAfterMs,
    serviceMessage,
  });
}

/** The `message` of an error body (either host's shape), or a preview of whatever text came. */
export async function readErrorMessage(res: HttpResponse, url: string, signal?: AbortSignal): Promise<string> {
  return (await readErrorBody(res, url, signal)).message;
}

/**
 * An error body's message (as readErrorMessage gives it), the token host's numeric `code`, and the
 * `message` and `status` of the service's own JSON shape, each when it sent one: a proxy's or a web
 * server's page has none.
 */
export async function readErrorBody(
  res: HttpResponse,
  url: string,
  signal?: AbortSignal,
): Promise<{ message: string; code?: number; serviceMessage?: string; status?: number }> {
  try {
    const text = (await readUpTo(res, url, ERROR_BODY_BYTES, signal)).bytes.toString('utf8');
    const body = ErrorBody.safeParse(safeJson(text));
    if (!body.success) return { message: preview(text) };
    const serviceMessage = body.data.message ? preview(body.data.message) : undefined;
    return { message: serviceMessage ?? preview(text), code: body.data.code, serviceMessage, status: body.data.status };
  } catch {
    return { message: '' }; // the status alone still says what happened
  }
}

/**
 * Throws unless `res`, the answer to a streamed request, is a stream of events: a proxy or an error
 * page may answer with a whole JSON or HTML body instead, and read as events it would only seem to
 * end early. The error says what came, with its start; an error body of the service's own shape is
 * the error for its status. A missing content type is given the benefit of the doubt.
 */
export async function expectEventStream(res: HttpResponse, url: string, signal?: AbortSignal): Promise<void> {
  const type = res.contentType.split(';')[0].trim().toLowerCase();
  if (type === '' || type === 'text/event-stream') return;
  const { message, serviceMessage, status } = await readErrorBody(res, url, signal);
  if (status !== undefined && status >= 400) {
    throw new ServiceError(kindForStatus(status), `${redactUrl(url)} answered ${status}: ${message}`, { status, requestId: res.requestId, serviceMessage });
  }
  throw new ServiceError(
    'protocol',
    `${redactUrl(url)} answered a streamed request with ${type} instead of a stream of events${message ? `: ${message}` : ''}`,
    {
      code: NOT_A_STREAM,
      requestId: res.requestId,
    },
  );
}

/** The code of an answer to a streamed request that was not a stream (a proxy's page, a whole JSON body). */
export const NOT_A_STREAM = 'NOT_A_STREAM';

function formatBytes(bytes: number): string {
  return bytes >= MiB ? `${bytes / MiB} MiB` : `${bytes / KiB} KiB`;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The start of a body for a message or the log, with anything that looks like a secret masked. */
function preview(text: string): string {
  const flat = redactSecrets(text.slice(0, 4 * KiB))
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}
