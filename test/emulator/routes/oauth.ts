// POST /api/v2/oauth: exchanges the Basic authorization key for a short-lived access token.
// The checks and their error codes follow the real service, so the client's error messages
// ("wrong key", "wrong scope") can be tested against the same bodies it will meet in production.
import { UUID_PATTERN } from '../constants';
import { header, json, oauthError, type Reply } from '../http';
import type { RouteContext } from '../state';

const CANT_DECODE = "Can't decode 'Authorization' header";

/** A key is base64 of "client_id:secret"; anything that does not decode to that is malformed. */
function decodesAsKey(key: string): boolean {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(key)) return false;
  return Buffer.from(key, 'base64').toString('utf8').includes(':');
}

export function oauth({ state, req, body }: RouteContext): Reply {
  if (req.method !== 'POST') return oauthError(405, 5, 'Method not allowed');

  const authorization = header(req, 'authorization') ?? '';
  const match = /^Basic\s+(\S+)$/i.exec(authorization.trim());
  const key = match?.[1];
  // The configured key is accepted as is, even if a test chose one that is not base64.
  if (key !== state.options.authorizationKey) {
    if (key === undefined || !decodesAsKey(key)) return oauthError(401, 4, CANT_DECODE);
    return oauthError(401, 6, "credentials doesn't match db data");
  }

  if (!UUID_PATTERN.test(header(req, 'rquid') ?? '')) return oauthError(400, 5, 'RqUID is invalid');

  // A body in another content type is not parsed as a form, so the service sees no scope at all.
  const isForm = (header(req, 'content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded');
  const scope = isForm ? (new URLSearchParams(body).get('scope') ?? '').trim() : '';
  if (scope === '') return oauthError(400, 5, 'scope is empty');
  if (!state.options.scopes.includes(scope)) {
    return oauthError(400, 7, 'scope from db not fully includes consumed scope');
  }

  return json(state.tokens.issue(scope, state.options.tokenLifetimeMs));
}
