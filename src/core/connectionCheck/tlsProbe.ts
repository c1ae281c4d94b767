import * as http from 'node:http';
import * as https from 'node:https';
import type { Duplex } from 'node:stream';
import * as tls from 'node:tls';
import { cancelled } from '../base/abortable';
import { summarizeDer, type CertificateSummary } from '../network/certificatePin';
import { ServiceError } from '../serviceError';
import type { Proxy } from '../network/proxyRoutes';
import { describeTransportError, proxyRefusal } from '../network/transportErrors';

export interface TlsProbeOptions {
  /** `https://host:port/…`: the server to shake hands with. */
  url: string;
  /** The roots to trust (PEM), as `trustedRoots` lists them for the real requests. */
  roots: string[];
  /** The proxy the real requests take to this server (see `ProxyRoutes`), tunnelled with CONNECT. */
  proxy?: Proxy;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface TlsProbeResult {
  /** The chain verified against the trusted roots and the host name. */
  authorized: boolean;
  /** OpenSSL's or Node's reason when it did not, e.g. `SELF_SIGNED_CERT_IN_CHAIN`. */
  errorCode?: string;
  /** `TLSv1.3`… when the handshake completed. */
  protocol?: string;
  /**
   * The certificates, server first. On success the trusted root the chain ends in is last; on
   * failure the chain is as the server sent it, and the last one's issuer is the unknown root.
   */
  chain: CertificateSummary[];
}

/**
 * One TLS handshake with the server, with verification on, to show a person what the server
 * presents: its chain's subjects and the root they end in. Nothing is sent over the connection.
 * Resolves with `authorized: false` when the chain or the host name fails verification; rejects
 * with a `ServiceError` when no handshake happened (refused, reset, proxy, timeout).
 */
export async function probeTls(options: TlsProbeOptions): Promise<TlsProbeResult> {
  const target = new URL(options.url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const port = Number(target.port) || 443;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), ...(options.signal ? [options.signal] : [])]);
  const { roots } = options;
  try {
    const socket = options.proxy ? await tunnel(options.proxy, host, port, roots, signal) : undefined;
    return await handshake({ host, port, socket, roots, signal });
  } catch (error) {
    if (options.signal?.aborted) throw cancelled(error);
    if (signal.aborted) throw new ServiceError('timeout', `${target.host} did not complete a TLS handshake within ${timeoutMs} ms.`, { cause: error });
    // Described as a failed request through the same proxy would be, so the fix offered is the same.
    throw describeTransportError(error, options.url, undefined, options.proxy);
  }
}

function handshake(options: { host: string; port: number; socket?: Duplex; roots: string[]; signal: AbortSignal }): Promise<TlsProbeResult> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      host: options.host,
      port: options.port,
      socket: options.socket,
      servername: isIpAddress(options.host) ? undefined : options.host,
      ca: options.roots,
      rejectUnauthorized: true,
    });
    let presented: CertificateSummary[] = [];
    // Node checks the chain right after the internal 'secure' event and, when it fails, destroys
    // the socket before anyone can read what the server sent. Read the chain just before that
    // check, so a failure can still name the root it ends in. Verification itself is untouched.
    socket.prependOnceListener('secure', () => (presented = chainOf(socket)));
    const onAbort = () => socket.destroy(new Error('aborted'));
    options.signal.addEventListener('abort', onAbort, { once: true });
    // An already aborted signal (a cancel between steps, or \`AbortSignal.any\` of one) never fires.
    if (options.signal.aborted) onAbort();
    const finish = () => {
      options.signal.removeEventListener('abort', onAbort);
      socket.destroy();
    };
    socket.once('secureConnect', () => {
      const result = { authorized: true, protocol: socket.getProtocol() ?? undefined, chain: chainOf(socket) };
      finish();
      resolve(result);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      finish();
      if (presented.length > 0 || isVerificationError(error)) resolve({ authorized: false, errorCode: error.code, chain: presented });
      else reject(error);
    });
  });
}

/** Node's verification errors carry OpenSSL's code (`UNABLE_TO_…`, `CERT_…`) or the host-name one. */
function isVerificationError(error: NodeJS.ErrnoException): boolean {
  return typeof error.code === 'string' && (/^(UNABLE_TO_|CERT_|SELF_SIGNED|DEPTH_ZERO)/.test(error.code) || error.code === 'ERR_TLS_CERT_ALTNAME_INVALID');
}

/** The peer's chain as Node links it (`issuerCertificate`), server first, without repeats. */
function chainOf(socket: tls.TLSSocket): CertificateSummary[] {
  const chain: CertificateSummary[] = [];
  const seen = new Set<string>();
  let current: tls.DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
  while (current?.raw && !seen.has(current.fingerprint256) && chain.length < 10) {
    seen.add(current.fingerprint256);
    const summary = summarizeDer(current.raw);
    if (summary) chain.push(summary);
    current = current.issuerCertificate;
  }
  return chain;
}

/** An HTTP CONNECT tunnel through the proxy to host:port, as undici opens for the real requests. */
function tunnel(proxy: Proxy, host: string, port: number, roots: string[], signal: AbortSignal): Promise<Duplex> {
  const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const headers: Record<string, string> = { Host: authority };
  if (proxy.authorization) headers['Proxy-Authorization'] = proxy.authorization;
  const address = new URL(proxy.address);
  const secure = address.protocol === 'https:';
  const request = (secure ? https : http).request({
    host: address.hostname.replace(/^\[|\]$/g, ''),
    port: Number(address.port) || (secure ? 443 : 80),
    method: 'CONNECT',
    path: authority,
    headers,
    signal,
    ...(secure ? { ca: roots } : {}),
  });
  return new Promise((resolve, reject) => {
    request.once('connect', (response, socket) => {
      if (response.statusCode === 200) return resolve(socket);
      socket.destroy();
      reject(proxyRefusal(response.statusCode ?? 0, proxy, authority));
    });
    request.once('error', reject);
    request.end();
  });
}

function isIpAddress(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}
