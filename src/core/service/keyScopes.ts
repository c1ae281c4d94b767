import { ServiceError } from '../serviceError';

/** The scopes an authorization key can belong to: personal (the default), business prepaid, business postpaid. */
export const KEY_SCOPES = ['GIGACHAT_API_PERS', 'GIGACHAT_API_B2B', 'GIGACHAT_API_CORP'] as const;

/**
 * The `code` of an `auth` error whose key the token host refused for the scope asked, not for
 * itself: its code 7, "scope from db not fully includes consumed scope".
 */
export const SCOPE_MISMATCH = 'SCOPE_MISMATCH';

/** The token host's body `code` for a key that does not belong to the scope asked. */
export const SCOPE_MISMATCH_SERVICE_CODE = 7;

export function isScopeMismatch(error: unknown): error is ServiceError {
  return error instanceof ServiceError && error.kind === 'auth' && error.code === SCOPE_MISMATCH;
}

/**
 * Which scope a key works with: `first` (the one in the settings), then, only while the token host
 * refuses the key for the scope rather than for itself, each of the others. A business key tried as
 * personal is then found without the user knowing the scopes' names. Any other failure (a wrong
 * key, the network, a certificate) ends the search at once: another scope would not fix it.
 * Resolves with the scope that gave a token; rejects with a scope mismatch naming every scope tried
 * when none did.
 *
 * @param authorize exchanges the key for a token with the given scope; rejects as the exchange does.
 */
export async function findKeyScope(authorize: (scope: string) => Promise<unknown>, first: string): Promise<string> {
  const order = [first, ...KEY_SCOPES.filter((scope) => scope !== first)];
  for (const scope of order) {
    try {
      await authorize(scope);
      return scope;
    } catch (error) {
      if (!isScopeMismatch(error)) throw error;
    }
  }
  throw new ServiceError('auth', `The authorization key belongs to none of the scopes ${order.join(', ')}.`, { code: SCOPE_MISMATCH });
}
