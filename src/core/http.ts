import type * as Undici from 'undici';
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { ServiceError, kindForStatus } from './errors';
import { ErrorBody } from './schemas';
import { trustedRoots } from './trust';
import { describeTransportError } from './transportErrors';
import type { Logger } from './logger';
import { createProxyAgent } from './proxyAgent';
import { ProxyRoutes, type Proxy, type ProxyOptions } from './proxyRoutes';

export type { ProxyOptions } from './proxyRoutes';

/**
 * The one place that talks to undici. Per client, one agent for direct connections and, when a
 * proxy is configured, one that tunnels through it; undici keeps a keep-alive pool per origin
 * inside each, created on first use, so nothing is opened until the first request.
 */
export interface TransportOptions {
  /** Extra trusted roots (PEM), added to Node's defaults, never replacing them. */
  ca?: readonly string[];
  proxy?: ProxyOptions;
  /** Longest wait for response headers, and longest silence between two body chunks, in ms. */
  timeoutMs: number;
  logger: Logger;
}

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  requestId?: string;
  contentType: string;
  /** Retry-After in ms, when the response carried one. */
  retryAfterMs?: number;
  /** Where a redirect points. */
  location?: string;
  body: Dispatcher.ResponseData['body'];
}

/**
 * undici, loaded on first use: it is most of the extension's code, and loading it at activation
 * would make every window pay for a client that may never send a request.
 */
function undici(): typeof Undici {
  return require('undici') as typeof Undici;
}

const KEEP_ALIVE_MS = 30_000;

export class Transport {
  private readonly tls: { ca: string[] };
  private readonly routes: ProxyRoutes;
  private readonly direct: Dispatcher;
  /** The one proxy agent, made on the first request that goes through the proxy. */
  private proxied?: Dispatcher;
  private closed?: Promise<void>;

  constructor(private readonly options: TransportOptions) {
    this.tls = { ca: trustedRoots(options.ca) };
    this.routes = new ProxyRoutes(options.proxy);
    this.direct = new (undici().Agent)({ connect: this.tls, keepAliveTimeout: KEEP_ALIVE_MS });
  }

  /**
   * Sends one request. Failures before a response (refused, reset, TLS, timeout, abort) throw a
   * `ServiceError`; any HTTP status is returned for the caller to judge.
   */
  async send(req: HttpRequest): Promise<HttpResponse> {
    const started = Date.now();
    let proxy: Proxy | undefined;
    try {
      proxy = this.routes.for(req.url);
      const res = await undici().request(req.url, {
        dispatcher: proxy ? this.agentFor(proxy) : this.direct,
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal: req.signal,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      });
      const requestId = header(res.headers, 'x-request-id');
      this.options.logger.debug(`${req.method} ${redactUrl(req.url)} → ${res.statusCode} in ${Date.now() - started} ms${requestId ? ` (request id ${requestId})` : ''}`);
      return {
        status: res.statusCode,
        requestId,
        contentType: header(res.headers, 'content-type') ?? '',
        retryAfterMs: parseRetryAfter(header(res.headers, 'retry-after')),
        location: header(res.headers, 'location'),
        body: res.body,
      };
    } catch (error) {
      const failure = describeTransportError(error, req.url, req.signal, proxy);
      this.options.logger.debug(`${req.method} ${redactUrl(req.url)} failed after ${Date.now() - started} ms: ${failure.code ?? failure.kind}`);
      throw failure;
    }
  }

  /** Closes every pooled connection; the transport cannot be used afterwards. Idempotent. */
  close(): Promise<void> {
    this.closed ??= Promise.all([this.direct.close(), this.proxied?.close()]).then(() => undefined);
    return this.closed;
  }

  private agentFor(proxy: Proxy): Dispatcher {
    if (!this.proxied) {
      this.options.logger.info(`Connecting through the proxy ${proxy.address} (from ${proxy.source})${proxy.authorization ? ', with credentials' : ''}`);
      this.proxied = createProxyAgent(undici(), proxy, this.tls, KEEP_ALIVE_MS, this.options.timeoutMs);
    }
    return this.proxied;
  }
}

/**
 * Lets go of a body the caller does not want. Destroying an undici body emits an abort error;
 * nobody is listening for it any more, so it is swallowed here instead of crashing the process.
 */
export function discardBody(res: HttpResponse): void {
  res.body.on('error', () => undefined);
  res.body.destroy();
}

/** Reads a whole body (failures mid-body become network/timeout/cancelled errors). */
export async function readBody(res: HttpResponse, url: string, signal?: AbortSignal): Promise<Buffer> {
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of res.body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  } catch (error) {
    throw describeTransportError(error, url, signal).withRequestId(res.requestId);
  }
}

/** Parses a JSON body with its schema; anything else is a `protocol` error that says what was wrong. */
export async function readJson<T extends z.ZodType>(res: HttpResponse, schema: T, url: string, signal?: AbortSignal): Promise<z.infer<T>> {
  const text = (await readBody(res, url, signal)).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ServiceError('protocol', `The service answered ${redactUrl(url)} with invalid JSON: ${preview(text)}`, { requestId: res.requestId, status: res.status });
  }
  return parseShape(schema, value, url, res.requestId);
}

export function parseShape<T extends z.ZodType>(schema: T, value: unknown, url: string, requestId?: string): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ');
  throw new ServiceError('protocol', `The service's answer to ${redactUrl(url)} has an unexpected shape (${issues}).`, { requestId });
}

/** Turns a non-2xx response into the error for its status, with the service's own message. */
export async function errorFromResponse(res: HttpResponse, url: string, signal?: AbortSignal): Promise<ServiceError> {
  const serviceMessage = await readErrorMessage(res, url, signal);
  const message = `${redactUrl(url)} answered ${res.status}${serviceMessage ? `: ${serviceMessage}` : ''}`;
  return new ServiceError(kindForStatus(res.status), message, { status: res.status, requestId: res.requestId, retryAfterMs: res.retryAfterMs });
}

/** The `message` of an error body (either host's shape), or a preview of whatever text came. */
export async function readErrorMessage(res: HttpResponse, url: string, signal?: AbortSignal): Promise<string> {
  try {
    const text = (await readBody(res, url, signal)).toString('utf8');
    const body = ErrorBody.safeParse(safeJson(text));
    return body.success && body.data.message ? body.data.message : preview(text);
  } catch {
    return ''; // the status alone still says what happened
  }
}

/** `Retry-After` is either delay-seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && value.trim() !== '') return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

/** URLs never carry secrets here, but a proxy URL could: strip credentials before logging. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    return parsed.toString();
  } catch {
    return '(invalid URL)';
  }
}
