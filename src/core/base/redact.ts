/**
 * Masks what looks like a secret in text that came from elsewhere (a body excerpt, an error's
 * message) before it goes into a message or the log. The client never quotes a token answer; this
 * is for everything else a server or proxy may send back, whoever's token it holds.
 */

/** A JSON field whose name says it holds a credential: `"access_token": "…"`, `"password":"…"`. */
const SECRET_FIELD = /("(?:access_?token|refresh_?token|id_?token|token|secret|client_?secret|password|authorization|api_?key)"\s*:\s*")(?:[^"\\]|\\.)*("?)/gi;

/** A JWT or JWE (the service's access tokens are one): base64url JSON headers begin with `eyJ`. */
const JSON_WEB_TOKEN = /\beyJ[\w-]{8,}(?:\.[\w-]*){1,4}/g;

/** `Bearer …` and `Basic …` credentials, as in a header someone echoed back. */
const AUTHORIZATION_VALUE = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g;

export function redactSecrets(text: string): string {
  return text.replace(SECRET_FIELD, '$1[redacted]$2').replace(JSON_WEB_TOKEN, '[redacted token]').replace(AUTHORIZATION_VALUE, '$1 [redacted]');
}
