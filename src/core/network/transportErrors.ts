import { cancelled } from '../base/abortable';
import { messageOf } from '../base/errorMessage';
import { ServiceError } from '../serviceError';
import type { Proxy } from './proxyRoutes';

/** OpenSSL verification codes meaning "the chain ends in a root this machine does not trust". */
const UNKNOWN_ROOT_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
]);
const OTHER_TLS_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);
/**
 * OpenSSL's word for a server that answered the handshake with something other than TLS: a plain
 * http port, or a proxy given as https:// that speaks plain http. No certificate is involved.
 */
export const NOT_TLS_CODE = 'ERR_SSL_WRONG_VERSION_NUMBER';
/** True for a TLS failure that trusting the right root certificate would fix. */
export function isUnknownRootError(error: ServiceError): boolean {
  return error.kind === 'tls' && error.code !== undefined && UNKNOWN_ROOT_CODES.has(error.code);
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);

/**
 * Classifies a failure that happened below HTTP (no status): the caller's abort, a certificate
 * problem, a timeout or a broken connection; with the `proxy` the request went through, a proxy
 * that could not be reached. Walks `cause` chains, since undici wraps errors.
 */
export function describeTransportError(error: unknown, url: string, signal?: AbortSignal, proxy?: Proxy): ServiceError {
  if (error instanceof ServiceError) return error;
  const host = hostOf(url);
  if (signal?.aborted) return cancelled(error);
  const proxyFailure = proxy && describeProxyFailure(error, proxy);
  if (proxyFailure) return proxyFailure;

  const code = findCode(error);
  if (code && UNKNOWN_ROOT_CODES.has(code)) {
    return new ServiceError(
      'tls',
      `The certificate of ${host} could not be verified (${code}): its chain ends in a root certificate this machine does not trust. ` +
        `GigaChat's servers use certificates issued by the Russian Trusted Root CA; ` +
        `add that certificate (or your company's proxy certificate) to the trusted roots. Never switch verification off.`,
      { code, cause: error },
    );
  }
  if (code && OTHER_TLS_CODES.has(code)) {
    return new ServiceError('tls', `The secure connection to ${host} failed (${code}): ${messageOf(error)}`, { code, cause: error });
  }
  if (code === NOT_TLS_CODE) {
    return new ServiceError(
      'network',
      `${host} did not answer with TLS (${code}): the port or the scheme of the address (or of the proxy) is probably wrong.`,
      { code, cause: error },
    );
  }
  if (code && TIMEOUT_CODES.has(code)) {
    return new ServiceError('timeout', `${host} did not answer in time (${code}).`, { code, cause: error });
  }
  return new ServiceError('network', `Could not reach ${host}${code ? ` (${code})` : ''}: ${messageOf(error)}`, { code, cause: error });
}

/** The code of a connection that broke while an answer was arriving (its low-level code is in the message). */
export const CONNECTION_LOST = 'CONNECTION_LOST';

/**
 * A failure while an answer's body was being read: the service was reached and had begun to
 * answer, so a broken connection is not "could not reach" but an answer cut off (CONNECTION_LOST).
 * Other failures (a timeout, the caller's abort) are as `describeTransportError` gives them.
 */
export function describeBrokenAnswer(error: unknown, url: string, signal?: AbortSignal): ServiceError {
  const described = describeTransportError(error, url, signal);
  if (described.kind !== 'network' || described.code === NOT_TLS_CODE || error instanceof ServiceError) return described;
  const code = described.code ? ` (${described.code})` : '';
  return new ServiceError('network', `The connection to ${hostOf(url)} broke while its answer was arriving${code}: ${messageOf(error)}`, {
    code: CONNECTION_LOST,
    cause: error,
  });
}

/** Failures to open a connection at all: through a proxy, that connection is the one to the proxy. */
const PROXY_UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * Classifies a failure of a request that went through `proxy`, when it is the proxy's fault: it
 * could not be reached. The message names the proxy (never its credentials), not the service,
 * which was never contacted. Anything else is classified by the rest of `describeTransportError`.
 */
function describeProxyFailure(error: unknown, proxy: Proxy): ServiceError | undefined {
  const code = findCode(error);
  if (!code || !PROXY_UNREACHABLE_CODES.has(code)) return undefined;
  return new ServiceError('proxy', `Could not connect to the proxy ${proxy.address} (from ${proxy.source}): ${code}.`, {
    code: 'PROXY_UNREACHABLE',
    proxy: { address: proxy.address, source: proxy.source },
    cause: error,
  });
}

/** The proxy took the connection but never answered the request to open a tunnel. */
export function proxySilence(proxy: Proxy, target: string, timeoutMs: number, cause: unknown): ServiceError {
  return new ServiceError(
    'proxy',
    `The proxy ${proxy.address} (from ${proxy.source}) accepted the connection ` +
      `but did not answer the request to open a tunnel to ${target} within ${Math.round(timeoutMs / 1000)} s.`,
    { code: 'PROXY_SILENT', proxy: { address: proxy.address, source: proxy.source }, cause },
  );
}

/** The proxy answered CONNECT with something other than 200: 407 is about credentials. */
export function proxyRefusal(status: number, proxy: Proxy, target: string): ServiceError {
  const where = `The proxy ${proxy.address} (from ${proxy.source})`;
  const details = { proxy: { address: proxy.address, source: proxy.source, status } };
  if (status === 407 && proxy.authorization) {
    return new ServiceError('proxy', `${where} refused the credentials it was given (407).`, { ...details, code: 'PROXY_AUTH_REJECTED' });
  }
  if (status === 407) {
    return new ServiceError('proxy', `${where} requires credentials (407), and none are set.`, { ...details, code: 'PROXY_AUTH_REQUIRED' });
  }
  return new ServiceError('proxy', `${where} refused to open a tunnel to ${target} (${status}).`, { ...details, code: 'PROXY_REFUSED' });
}

function findCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    // undici's generic socket code hides the real reason one level down.
    if (typeof code === 'string' && code !== 'UND_ERR_SOCKET') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return (error as { code?: string } | undefined)?.code;
}

/** The host (and port) of a URL, or the text itself when it is not one. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
