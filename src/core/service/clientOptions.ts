import type { BatchLimits } from './embeddingBatches';
import type { ProxyOptions } from '../network/http';
import type { Logger } from '../base/logger';
import type { RetryPolicy } from './retry';
import type { ChatContracts } from './contract/chatContracts';
import type { Scheduling } from '../streams/scheduledSend';
import type { StreamScheduler } from '../streams/streamScheduler';

// What a `ServiceClient` is made with, and what each of its requests may be given.

export interface ServiceClientOptions {
  /** The long-lived authorization key, or a function that reads it when a token is needed. */
  authorizationKey: string | (() => Promise<string | undefined>);
  /** `GIGACHAT_API_PERS`, `GIGACHAT_API_B2B` or `GIGACHAT_API_CORP`. */
  scope: string;
  /** Token exchange URL, e.g. `https://ngw.devices.sberbank.ru:9443/api/v2/oauth`. */
  authUrl: string;
  /** Model host base URL, e.g. `https://gigachat.devices.sberbank.ru/api/v1`. */
  baseUrl: string;
  /** Extra trusted roots (PEM), added to Node's defaults, never replacing them. */
  ca?: string[];
  /** Longest wait for an answer, and longest silence inside a streamed answer, in ms (default 90 000). */
  timeoutMs?: number;
  /** Retries of a request that failed with 429/5xx or a dropped connection (default 3). */
  maxRetries?: number;
  /** Fine-tuning of the backoff (tests shorten the delays). */
  retry?: Partial<RetryPolicy>;
  proxy?: ProxyOptions;
  /** Extra headers on every model-host request. */
  headers?: Record<string, string>;
  /** Sent as `X-Client-ID`; generated files are scoped to it. */
  clientId?: string;
  embeddingBatch?: Partial<BatchLimits>;
  logger?: Logger;
  userAgent?: string;
  /** Which chat contract each host speaks; shared by the clients of one window so a fallback is remembered. */
  chatContracts?: ChatContracts;
  /** The account's streams, shared by every client of the account: each request takes one (see `StreamScheduler`). */
  scheduler?: StreamScheduler;
}

export interface RequestOptions extends Scheduling {
  signal?: AbortSignal;
  /** Retries of this request instead of the client's (a suggestion: none). */
  maxRetries?: number;
}

export interface ChatOptions extends RequestOptions {
  /** The same id on every turn of a conversation lets the service cache the shared prefix. */
  sessionId?: string;
}

export interface EmbeddingOptions extends RequestOptions {
  /** Default `Embeddings`. */
  model?: string;
}
