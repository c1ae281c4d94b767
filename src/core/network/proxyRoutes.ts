import { ServiceError } from '../serviceError';
import { isLoopbackHost } from './loopback';

/**
 * Proxy settings. A field left undefined falls back to the environment (`HTTPS_PROXY`,
 * `HTTP_PROXY`, `NO_PROXY`, in either case); credentials go in the URL (`http://user:pass@proxy:3128`).
 */
export interface ProxyOptions {
  url?: string;
  /** Hosts that bypass the proxy, comma- or space-separated: `host`, `.suffix`, `*.suffix`, `host:port`, `*`. */
  noProxy?: string;
  /** A ready `Proxy-Authorization` value (VS Code's `http.proxyAuthorization`); wins over URL credentials. */
  authorization?: string;
}

/** The proxy a request goes through. */
export interface Proxy {
  /** `scheme://host:port`, without credentials: safe to log and to show. */
  address: string;
  /** The setting or variable it came from (`http.proxy`, `HTTPS_PROXY`, …), for messages. */
  source: string;
  /** The `Proxy-Authorization` value to send with CONNECT, if any. */
  authorization?: string;
}

interface BypassEntry {
  host: string;
  port?: number;
}

const SUPPORTED_SCHEMES = new Set(['http:', 'https:', 'socks:', 'socks5:']);
const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/**
 * Decides, per request URL, whether to go through a proxy and which. Both of the service's hosts
 * are https, so `HTTPS_PROXY` is the variable that matters; `HTTP_PROXY` is its fallback, as in
 * curl and undici. The environment is read once, when the client is built.
 */
export class ProxyRoutes {
  private readonly proxy?: Proxy;
  /** Set when the configured address cannot be used: requests that would use it fail with this. */
  private readonly invalid?: ServiceError;
  private readonly bypassAll: boolean;
  private readonly bypass: BypassEntry[];

  /**
   * `directLoopback`: this machine's own addresses (localhost, 127.0.0.0/8, ::1) never go through
   * the proxy, as in browsers: a server on the user's machine (a completion server) is reached
   * directly, and its key stays off the company's proxy. The service's clients leave it off, as
   * the service is never local: its tests put a proxy in front of a local emulator.
   */
  constructor(
    options: ProxyOptions = {},
    env: NodeJS.ProcessEnv = process.env,
    private readonly routing: { directLoopback?: boolean } = {},
  ) {
    const configured = configuredProxy(options, env);
    if (configured) {
      const parsed = parseProxyUrl(configured.value);
      const address = parsed && `${parsed.protocol}//${parsed.host}`;
      // A ready Proxy-Authorization wins: the URL's credentials are then not read at all.
      const authorization = parsed && (options.authorization || proxyAuthorization(parsed));
      if (parsed && address && authorization !== null) {
        this.proxy = { address, source: configured.source, authorization };
      } else if (address) {
        this.invalid = new ServiceError(
          'proxy',
          `The user name or password of the proxy in ${configured.source} holds a "%" that does not start a percent-encoded character (write % as %25).`,
          { code: 'PROXY_CREDENTIALS_ENCODING', proxy: { address, source: configured.source } },
        );
      } else {
        const shown = withoutCredentials(configured.value);
        this.invalid = new ServiceError('proxy', `The proxy address in ${configured.source} is not a valid proxy URL: ${shown}`, {
          code: 'PROXY_INVALID',
          proxy: { address: shown, source: configured.source },
        });
      }
    }
    const noProxy = options.noProxy ?? env.no_proxy ?? env.NO_PROXY ?? '';
    const entries = noProxy.split(/[\s,]+/).filter(Boolean);
    this.bypassAll = entries.includes('*');
    this.bypass = entries.map(parseBypassEntry);
  }

  /** True when some request may go through a proxy (or would fail for a bad proxy address). */
  get configured(): boolean {
    return this.proxy !== undefined || this.invalid !== undefined;
  }

  /** The proxy for a request to `url`, or undefined to connect directly. */
  for(url: string): Proxy | undefined {
    if (!this.configured || this.bypasses(url)) return undefined;
    if (this.invalid) throw this.invalid;
    return this.proxy;
  }

  private bypasses(url: string): boolean {
    if (this.bypassAll) return true;
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return false; // the request itself will fail with a clear error
    }
    const host = unbracket(target.hostname.toLowerCase());
    if (this.routing.directLoopback && isLoopbackHost(host)) return true;
    const port = Number(target.port) || DEFAULT_PORTS[target.protocol] || 0;
    return this.bypass.some((entry) => (entry.port === undefined || entry.port === port) && (host === entry.host || host.endsWith(`.${entry.host}`)));
  }
}

function configuredProxy(options: ProxyOptions, env: NodeJS.ProcessEnv): { value: string; source: string } | undefined {
  if (options.url?.trim()) return { value: options.url.trim(), source: 'http.proxy' };
  for (const name of ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY']) {
    const value = env[name]?.trim();
    if (value) return { value, source: name };
  }
  return undefined;
}

/** Proxy variables are often written without a scheme (`proxy.corp:3128`): that means http. */
function parseProxyUrl(value: string): URL | undefined {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  try {
    const url = new URL(withScheme);
    return SUPPORTED_SCHEMES.has(url.protocol) && url.hostname ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `Basic base64(user:password)` from the URL's percent-encoded credentials (a password may be
 * empty); null when they cannot be decoded: a `%` not followed by two hex digits, as in a password
 * pasted as it is.
 */
function proxyAuthorization(url: URL): string | undefined | null {
  if (!url.username && !url.password) return undefined;
  try {
    const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    return `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
  } catch {
    return null;
  }
}

/**
 * The address as written, with everything up to its last `@` removed, for messages about a bad
 * address: in one that does not parse, a password may hold anything, `/` and `@` included.
 */
export function withoutCredentials(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/)?.*@/is, '$1');
}

function parseBypassEntry(entry: string): BypassEntry {
  const lower = entry.toLowerCase();
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(lower);
  if (bracketed) return { host: bracketed[1], port: bracketed[2] ? Number(bracketed[2]) : undefined };
  if ((lower.match(/:/g) ?? []).length > 1) return { host: lower }; // a bare IPv6 address has no port
  const [host, port] = lower.split(':');
  return { host: host.replace(/^\*?\./, ''), port: port && /^\d+$/.test(port) ? Number(port) : undefined };
}

function unbracket(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}
