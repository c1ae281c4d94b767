import { ServiceError } from '../../serviceError';
import { redactUrl } from '../../network/http';
import type { Logger } from '../../base/logger';

export type ChatContract = 'v1' | 'v2';

/** How long a host that lacks the current contract is spoken to with the previous one before v2 is tried again, in ms. */
export const PREVIOUS_CONTRACT_FOR_MS = 10 * 60_000;

/** A second 404 within this long of the first (ms) confirms it: the request is asked again at once, so it comes well within. */
const CONFIRM_WITHIN_MS = 15_000;

/**
 * Which chat contract each model host speaks. The current one (`…/api/v2/chat/completions`) is
 * tried first wherever the base URL names the previous one's version (`…/v1`). A host that
 * answers it with 404 is asked once more, since one 404 may be a passing fault of a gateway; a
 * second says the host lacks it (an older or on-premise installation): the previous contract is
 * spoken to it for PREVIOUS_CONTRACT_FOR_MS, then v2 is tried again (the host may have been
 * upgraded), and the log says so each time. Kept apart from the client so that a client rebuilt
 * after a settings change still knows.
 */
export class ChatContracts {
  /** Hosts on the previous contract, until when (Unix ms). */
  private readonly previousUntil = new Map<string, number>();
  /** Hosts whose last v2 request was a 404 not yet confirmed, since when (Unix ms). */
  private readonly firstMiss = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The contract to use with `baseUrl`, and the URL of its chat endpoint. */
  chatEndpoint(baseUrl: string): { contract: ChatContract; url: string } {
    const base = baseUrl.replace(/\/+$/, '');
    const versionAt = base.search(/\/v1$/);
    if (versionAt === -1 || this.onPrevious(base)) return { contract: 'v1', url: `${base}/chat/completions` };
    return { contract: 'v2', url: `${base.slice(0, versionAt)}/v2/chat/completions` };
  }

  /**
   * Whether the caller should ask again after `error`, its answer on the current contract: a 404
   * about the path (not "No such model", which stands) is asked again on v2 the first time, and
   * on v1 once a second one confirms the host lacks v2 (`chatEndpoint` then says v1).
   */
  fallBack(baseUrl: string, error: unknown, logger: Logger): boolean {
    if (!isMissingPath(error)) return false;
    const base = baseUrl.replace(/\/+$/, '');
    const now = this.now();
    const first = this.firstMiss.get(base);
    if (first === undefined || now - first > CONFIRM_WITHIN_MS) {
      this.firstMiss.set(base, now);
      logger.info(`${redactUrl(base)} answered 404 to v2/chat/completions: asking once more before using the previous contract (v1).`);
      return true;
    }
    this.firstMiss.delete(base);
    this.previousUntil.set(base, now + PREVIOUS_CONTRACT_FOR_MS);
    logger.info(
      `${redactUrl(base)} has no v2/chat/completions (404 twice): chat uses the previous contract (v1) with this host ` +
        `for the next ${PREVIOUS_CONTRACT_FOR_MS / 60_000} minutes, then tries v2 again.`,
    );
    return true;
  }

  private onPrevious(base: string): boolean {
    const until = this.previousUntil.get(base);
    if (until === undefined) return false;
    if (this.now() < until) return true;
    this.previousUntil.delete(base);
    return false;
  }
}

/**
 * A 404 that says the path is not there, read from the service's own error body: its `message`
 * naming the model ("No such model") is about the model, whatever the address says. A body that
 * is not the service's (a gateway's page) has no such message.
 */
function isMissingPath(error: unknown): boolean {
  return error instanceof ServiceError && error.status === 404 && !/model/i.test(error.serviceMessage ?? '');
}
