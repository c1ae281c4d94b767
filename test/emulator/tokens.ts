// Issued access tokens. Opaque random strings, like the real ones to a client: the client must not
// parse them, only send them back and refresh them when told they expired.
import { randomBytes } from 'node:crypto';

export type TokenCheck = { state: 'ok'; scope: string } | { state: 'unknown' } | { state: 'expired' };

interface IssuedToken {
  scope: string;
  expiresAt: number;
}

export class TokenStore {
  private readonly tokens = new Map<string, IssuedToken>();

  issue(scope: string, lifetimeMs: number): { access_token: string; expires_at: number } {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = Date.now() + lifetimeMs;
    this.tokens.set(token, { scope, expiresAt });
    return { access_token: token, expires_at: expiresAt };
  }

  check(token: string | undefined): TokenCheck {
    const issued = token === undefined ? undefined : this.tokens.get(token);
    if (!issued) return { state: 'unknown' };
    if (Date.now() >= issued.expiresAt) return { state: 'expired' };
    return { state: 'ok', scope: issued.scope };
  }

  /** Every token issued so far expires now; new exchanges still give fresh, valid tokens. */
  expireAll(): void {
    const now = Date.now();
    for (const issued of this.tokens.values()) issued.expiresAt = Math.min(issued.expiresAt, now);
  }
}
