import { v4 as uuidv4 } from 'uuid';
import { basicCredentials, normalizeExpiry, type AccessToken } from './auth';
import { ServiceError } from '../serviceError';
import { redactUrl, type HttpResponse, type Transport } from '../network/http';
import type { Logger } from '../base/logger';
import { SCOPE_MISMATCH, SCOPE_MISMATCH_SERVICE_CODE } from './keyScopes';
import { BODY_LIMITS, errorFromResponse, readErrorBody, readJson } from './responseBody';
import { withRetries, type RetryPolicy } from './retry';
import { TokenResponse } from './schemas';
import { serviceUrlProblem } from './serviceUrls';

/** What the token host needs to know: the key (or how to read it), where to send it, and for which scope. */
export interface TokenExchangeOptions {
  authorizationKey: string | (() => Promise<string | undefined>);
  authUrl: string;
  scope: string;
  userAgent?: string;
}

/**
 * Exchanges the authorization key for an access token at the token host (Basic key, a fresh RqUID,
 * the scope form-encoded), with retries. A rejected key is an `auth` error that says what to check;
 * the answer, which holds the token, is never quoted. Run by the token manager, one at a time.
 */
export async function exchangeToken(transport: Transport, options: TokenExchangeOptions, retry: RetryPolicy, logger: Logger): Promise<AccessToken> {
  const source = options.authorizationKey;
  const key = typeof source === 'function' ? await source() : source;
  if (!key?.trim()) throw new ServiceError('auth', 'No GigaChat authorization key is set.', { code: 'NO_KEY' });
  const url = options.authUrl;
  const badAddress = serviceUrlProblem(url, 'authUrl');
  if (badAddress) throw badAddress;
  return withRetries(
    async () => {
      const res = await transport.send({
        method: 'POST',
        url,
        headers: {
          Authorization: `Basic ${basicCredentials(key)}`,
          RqUID: uuidv4(), // a fresh id for every exchange, as the service requires
          'Content-Type': 'application/x-www-form-urlencoded',
          Accept: 'application/json',
          'User-Agent': options.userAgent ?? 'gigachat-vscode',
        },
        body: new URLSearchParams({ scope: options.scope }).toString(),
      });
      if (res.status === 400 || res.status === 401) throw await keyRejected(res, options);
      if (res.status < 200 || res.status >= 300) throw await errorFromResponse(res, url);
      // The answer holds the token: an error about it never quotes it.
      const body = await readJson(res, TokenResponse, url, { limit: BODY_LIMITS.token, quoteBody: false });
      logger.info(`Access token received for scope ${options.scope}`);
      return { token: body.access_token, expiresAtMs: normalizeExpiry(body.expires_at) };
    },
    retry,
    logger,
  );
}

async function keyRejected(res: HttpResponse, options: TokenExchangeOptions): Promise<ServiceError> {
  const { message: reason, code } = await readErrorBody(res, options.authUrl);
  const details = { status: res.status, requestId: res.requestId };
  const answered = `${redactUrl(options.authUrl)} (${res.status}${reason ? `: ${reason}` : ''})`;
  if (code === SCOPE_MISMATCH_SERVICE_CODE) {
    return new ServiceError('auth', `The authorization key does not belong to the scope ${options.scope}, said ${answered}.`, {
      ...details,
      code: SCOPE_MISMATCH,
    });
  }
  return new ServiceError(
    'auth',
    `The authorization key was rejected by ${answered}. Check that the key is copied whole and belongs to the scope ${options.scope}.`,
    details,
  );
}
