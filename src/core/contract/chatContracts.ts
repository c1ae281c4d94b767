import { ServiceError } from '../errors';
import { redactUrl } from '../http';
import type { Logger } from '../logger';

export type ChatContract = 'v1' | 'v2';

/**
 * Which chat contract each model host speaks. The current one (`…/api/v2/chat/completions`) is
 * tried first wherever the base URL names the previous one's version (`…/v1`); a host that
 * answers it with 404 (an older or on-premise installation) is spoken to with the previous
 * contract from then on, and the log says so once. Kept apart from the client so that a client
 * rebuilt after a settings change still knows.
 */
export class ChatContracts {
  private readonly previousOnly = new Set<string>();

  /** The contract to use with `baseUrl`, and the URL of its chat endpoint. */
  chatEndpoint(baseUrl: string): { contract: ChatContract; url: string } {
    const base = baseUrl.replace(/\/+$/, '');
    const versionAt = base.search(/\/v1$/);
    if (versionAt === -1 || this.previousOnly.has(base)) return { contract: 'v1', url: `${base}/chat/completions` };
    return { contract: 'v2', url: `${base.slice(0, versionAt)}/v2/chat/completions` };
  }

  /**
   * Whether `error`, the answer to a request on the current contract, says the host lacks it: then
   * the host is marked for the previous contract and the caller asks again there. A 404 that
   * names the model ("No such model") is the model's, not the contract's, and stands.
   */
  fallBack(baseUrl: string, error: unknown, logger: Logger): boolean {
    if (!(error instanceof ServiceError) || error.status !== 404 || /model/i.test(error.message)) return false;
    const base = baseUrl.replace(/\/+$/, '');
    if (!this.previousOnly.has(base)) {
      this.previousOnly.add(base);
      logger.info(`${redactUrl(base)} has no v2/chat/completions (404): chat uses the previous contract (v1) with this host from now on.`);
    }
    return true;
  }
}
