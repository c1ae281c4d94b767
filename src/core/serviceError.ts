/**
 * The one error type the core throws. `kind` says what happened in terms a caller can act on
 * (the VS Code layer maps each kind to a localized message and a button that fixes it);
 * `message` is a precise English description for logs and for callers of the public API.
 */
export type ServiceErrorKind =
  | 'auth' // the authorization key is missing or rejected, or the token was refused
  | 'payment' // 402: the account is out of tokens
  | 'forbidden' // 403
  | 'notFound' // 404: unknown model, file or path
  | 'tooLarge' // 413
  | 'invalidRequest' // 400 / 422: the request itself is wrong
  | 'rateLimit' // 429
  | 'server' // 5xx
  | 'network' // connection refused, reset, DNS failure
  | 'proxy' // the proxy could not be reached, refused the credentials, or refused the tunnel
  | 'tls' // the certificate chain could not be verified
  | 'timeout' // no answer (or no data) within the configured time
  | 'protocol' // the service answered something that does not match the contract
  | 'internal' // the extension failed by itself (an exception it did not expect): not the service's doing
  | 'cancelled'; // the caller aborted

export interface ServiceErrorDetails {
  status?: number;
  /** The service's `X-Request-Id` of the failed response, when there was one. */
  requestId?: string;
  /** How long the service asked us to wait (`Retry-After`), in milliseconds. */
  retryAfterMs?: number;
  /** Low-level code (e.g. `SELF_SIGNED_CERT_IN_CHAIN`, `ECONNRESET`) for logs and diagnostics. */
  code?: string;
  /** For `proxy` errors: which proxy, named without its credentials. */
  proxy?: ProxyFailure;
  /** For an answer refused for its size: the limit it went over, in bytes (characters, for a stream's event). */
  limitBytes?: number;
  /** The `message` of the service's own error body (`{"status", "message"}`), when it answered with one. */
  serviceMessage?: string;
  cause?: unknown;
}

/** What a `proxy` error says about the proxy; never its credentials. */
export interface ProxyFailure {
  /** `scheme://host:port` of the proxy. */
  address: string;
  /** Where the proxy was configured: `http.proxy`, `HTTPS_PROXY`, … */
  source: string;
  /** The proxy's answer to CONNECT, when it answered with a refusal. */
  status?: number;
}

export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  readonly status?: number;
  readonly requestId?: string;
  readonly retryAfterMs?: number;
  readonly code?: string;
  readonly proxy?: ProxyFailure;
  readonly limitBytes?: number;
  readonly serviceMessage?: string;

  constructor(
    readonly kind: ServiceErrorKind,
    message: string,
    details: ServiceErrorDetails = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.status = details.status;
    this.requestId = details.requestId;
    this.retryAfterMs = details.retryAfterMs;
    this.code = details.code;
    this.proxy = details.proxy;
    this.limitBytes = details.limitBytes;
    this.serviceMessage = details.serviceMessage;
  }

  /** A copy that carries the request id, for errors detected after the response arrived. */
  withRequestId(requestId: string | undefined): ServiceError {
    if (!requestId || this.requestId) return this;
    return new ServiceError(this.kind, this.message, { ...this.details(), requestId });
  }

  private details(): ServiceErrorDetails {
    return {
      status: this.status,
      requestId: this.requestId,
      retryAfterMs: this.retryAfterMs,
      code: this.code,
      proxy: this.proxy,
      limitBytes: this.limitBytes,
      serviceMessage: this.serviceMessage,
      cause: this.cause,
    };
  }
}

export function isServiceError(value: unknown): value is ServiceError {
  return value instanceof ServiceError;
}

/**
 * Any failure as the core's error. One that is not a ServiceError was thrown by the extension's own
 * code (a bug, a stack overflow): it is `internal`, never put on the service, with the exception as
 * its cause for the log.
 */
export function asServiceError(error: unknown): ServiceError {
  if (error instanceof ServiceError) return error;
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new ServiceError('internal', message, { cause: error });
}

/** Maps an HTTP status of a failed response to the kind a caller acts on. */
export function kindForStatus(status: number): ServiceErrorKind {
  switch (status) {
    case 401:
      return 'auth';
    case 402:
      return 'payment';
    case 403:
      return 'forbidden';
    case 404:
      return 'notFound';
    case 413:
      return 'tooLarge';
    case 408:
      return 'timeout';
    case 429:
      return 'rateLimit';
    default:
      return status >= 500 ? 'server' : 'invalidRequest';
  }
}
