import type * as Undici from 'undici';
import type { Dispatcher } from 'undici';
import { trustedRoots } from './trust';
import { describeTransportError } from './transportErrors';
import type { Logger } from '../base/logger';
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
  /** This machine's own addresses are reached directly, never through the proxy (ProxyRoutes). */
  directLoopback?: boolean;
  /** Longest wait for response headers, and longest silence between two body chunks, in ms. */
  timeoutMs: number;
  logger: Logger;
}

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  /** JSON or form text, or the bytes of a multipart upload. */
  body?: string | Uint8Array;
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
  /** The body's size as the response declares it (`Content-Length`), when it does. */
  contentLength?: number;
  body: Dispatcher.ResponseData['body'];
}

/**
 * undici, loaded on first use: it is most of the extension's code, and loading it at activation
 * would make every window pay for a client that may never send a request.
 */
function undici(): typeof Undici {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded when first needed, not at import
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
    this.routes = new ProxyRoutes(options.proxy, process.env, { directLoopback: options.directLoopback });
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
      this.options.logger.debug(
        `${req.method} ${redactUrl(req.url)} → ${res.statusCode} in ${Date.now() - started} ms${requestId ? ` (request id ${requestId})` : ''}`,
      );
      return {
        status: res.statusCode,
        requestId,
        contentType: header(res.headers, 'content-type') ?? '',
        retryAfterMs: parseRetryAfter(header(res.headers, 'retry-after')),
        location: header(res.headers, 'location'),
        contentLength: parseContentLength(header(res.headers, 'content-length')),
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

/** `Retry-After` is either delay-seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && value.trim() !== '') return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function parseContentLength(value: string | undefined): number | undefined {
  const length = value === undefined ? Number.NaN : Number(value);
  return Number.isSafeInteger(length) && length >= 0 ? length : undefined;
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
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
