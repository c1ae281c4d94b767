import { abortable } from '../base/abortable';
import { ServiceError } from '../serviceError';

/** An access token and the moment it stops working (Unix ms). */
export interface AccessToken {
  token: string;
  expiresAtMs: number;
}

/** Refresh this long before expiry (or a tenth of the lifetime, for short-lived test tokens). */
const REFRESH_MARGIN_MS = 60_000;

/** The token's documented lifetime: assumed when this machine's clock makes a fresh token look expired. */
const DOCUMENTED_LIFETIME_MS = 30 * 60_000;

/**
 * Caches the access token and refreshes it before it expires. However many calls ask at once,
 * only one exchange runs (single-flight): the service limits token requests, and a burst of
 * parallel refreshes would be refused. One caller's abort never fails the others' shared exchange.
 */
export class TokenManager {
  private current?: AccessToken & { refreshAtMs: number };
  private pending?: Promise<AccessToken>;
  private generation = 0;

  constructor(
    private readonly exchange: () => Promise<AccessToken>,
    private readonly now: () => number = Date.now,
  ) {}

  /** When the cached token expires (Unix ms), if there is one. */
  get expiresAtMs(): number | undefined {
    return this.current?.expiresAtMs;
  }

  async getToken(signal?: AbortSignal): Promise<string> {
    const cached = this.current;
    if (cached && this.now() < cached.refreshAtMs) return cached.token;
    return (await abortable(this.refresh(), signal)).token;
  }

  /**
   * A token from an exchange that starts after this call, or from the one already in flight: the
   * way to check the key now without breaking single-flight for the requests sharing this manager.
   */
  renew(signal?: AbortSignal): Promise<AccessToken> {
    this.current = undefined;
    return abortable(this.refresh(), signal);
  }

  /**
   * Forgets the token. With `token`, only if it is still the cached one: a 401 seen by a request
   * that used an older token must not throw away the fresh one another caller just fetched.
   */
  invalidate(token?: string): void {
    if (token !== undefined && this.current?.token !== token) return;
    this.current = undefined;
    if (token === undefined) {
      this.generation++; // an exchange in flight with the old key or scope must not be cached
      this.pending = undefined;
    }
  }

  private refresh(): Promise<AccessToken> {
    if (this.pending) return this.pending;
    const generation = this.generation;
    const started = this.now();
    const pending = this.exchange()
      .then((token) => {
        if (generation === this.generation) {
          // `expires_at` is on the service's clock. A fresh token that looks expired here means this
          // machine's clock runs ahead (by hours, with a wrong time zone): going by it, every request
          // would make its own exchange.
          const measured = token.expiresAtMs - started;
          const lifetime = measured > 0 ? measured : DOCUMENTED_LIFETIME_MS;
          this.current = { ...token, refreshAtMs: started + lifetime - Math.min(REFRESH_MARGIN_MS, lifetime / 10) };
        }
        return token;
      })
      .finally(() => {
        if (this.pending === pending) this.pending = undefined;
      });
    this.pending = pending;
    return pending;
  }
}

/** `expires_at` is documented in milliseconds, but an old example shows seconds. */
export function normalizeExpiry(expiresAt: number): number {
  return expiresAt < 1e12 ? expiresAt * 1000 : expiresAt;
}

/**
 * The key as the `Authorization: Basic` value. The console's key is already base64 of
 * `client_id:secret` and is sent as is; people also paste it with a `Basic ` prefix, or paste the
 * raw `client_id:secret` pair (base64 never contains a colon, so that case is unambiguous).
 */
export function basicCredentials(key: string): string {
  const trimmed = key.trim().replace(/^basic\s+/i, '');
  return trimmed.includes(':') ? Buffer.from(trimmed, 'utf8').toString('base64') : trimmed;
}

/** The code of a model host's 401 that calls a fresh access token expired: the key itself was accepted. */
export const TOKEN_EXPIRED = 'TOKEN_EXPIRED';

/**
 * The error for a model host's 401 to a request sent again with a fresh token. The key was accepted
 * at the token host, so the service's own word decides: "Token has expired" is about the token (a
 * passing fault of the service, the fresh one refused as old); anything else may be the key or its scope.
 */
export function refusedToken(error: ServiceError, scope: string): ServiceError {
  const details = { status: error.status, requestId: error.requestId, serviceMessage: error.serviceMessage };
  if (/expired/i.test(error.serviceMessage ?? '')) {
    return new ServiceError('auth', `The service called a fresh access token expired (${error.message}); the authorization key was accepted.`, {
      ...details,
      code: TOKEN_EXPIRED,
    });
  }
  return new ServiceError(
    'auth',
    `The service refused a fresh access token (${error.message}). Check the authorization key and its scope (${scope}).`,
    details,
  );
}
