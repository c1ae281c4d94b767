import { explainAttachmentRefusal } from '../attachments/attachmentErrors';
import { TokenManager, refusedToken } from './auth';
import { defaultBatchLimits, embedInBatches, vectorsInInputOrder, type BatchLimits } from './embeddingBatches';
import { ServiceError } from '../serviceError';
import { checkUpload, mayUploadAgain, multipartForm, type UploadOptions } from '../attachments/fileUpload';
import { FILE_ID } from '../../serviceFacts/fileFacts';
import { Transport, discardBody, type HttpResponse } from '../network/http';
import { BODY_LIMITS, errorFromResponse, readBody, readJson } from './responseBody';
import { silentLogger, type Logger } from '../base/logger';
import { defaultRetryPolicy, withRetries, type RetryPolicy } from './retry';
import {
  BalanceResponse,
  ChatChunk,
  ChatCompletion,
  DeletedFile,
  EmbeddingsResponse,
  FileInfo,
  ModelsResponse,
  TokenCountResponse,
  type BalanceEntry,
  type ChatRequest,
  type ModelInfo,
  type TokenCount,
} from './schemas';
import { serviceUrlsProblem } from './serviceUrls';
import { exchangeToken } from './tokenExchange';
import type { ZodType } from 'zod';
import { describeBrokenAnswer } from '../network/transportErrors';
import { ChatContracts, type ChatContract } from './contract/chatContracts';
import { v1Chunks, v2Chunks } from './contract/replyStreams';
import { v2Completion } from './contract/v2Reply';
import { toV1Body, toV2Body } from './contract/requestBodies';
import { V2Reply } from './contract/v2Wire';
import { sendScheduled } from '../streams/scheduledSend';
import type { ChatOptions, EmbeddingOptions, RequestOptions, ServiceClientOptions } from './clientOptions';
import { callBody, callHeaders, type ServiceCall } from './serviceCall';

/** The service's client: every model-host request goes through token, retries and validation here. */
export class ServiceClient {
  private readonly transport: Transport;
  private readonly tokens: TokenManager;
  private readonly retry: RetryPolicy;
  private readonly logger: Logger;
  private readonly batchLimits: BatchLimits;
  private readonly contracts: ChatContracts;

  constructor(private readonly options: ServiceClientOptions) {
    this.logger = options.logger ?? silentLogger;
    this.retry = { ...defaultRetryPolicy, ...options.retry, ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }) };
    this.batchLimits = { ...defaultBatchLimits, ...options.embeddingBatch };
    this.contracts = options.chatContracts ?? new ChatContracts();
    this.transport = new Transport({ ca: options.ca, proxy: options.proxy, timeoutMs: options.timeoutMs ?? 90_000, logger: this.logger });
    this.tokens = new TokenManager(() => exchangeToken(this.transport, this.options, this.retry, this.logger));
  }

  /** One chat completion, returned whole, on the host's chat contract (see `ChatContracts`). */
  async chat(request: ChatRequest, options: ChatOptions = {}): Promise<ChatCompletion> {
    const { res, contract, url } = await this.openChat(request, false, options);
    // Not retried once the answer starts to arrive: by then the reply was generated, and paid for.
    if (contract === 'v1') return readJson(res, ChatCompletion, url, { signal: options.signal });
    return v2Completion(await readJson(res, V2Reply, url, { signal: options.signal }));
  }

  /**
   * A streamed chat completion: chunks of the previous contract's shape, in order, whichever
   * contract the host speaks. A stream cut short or carrying malformed JSON throws after yielding
   * every chunk that did arrive. Breaking out of the loop closes the connection.
   */
  async *chatStream(request: ChatRequest, options: ChatOptions = {}): AsyncGenerator<ChatChunk> {
    const { res, contract, url } = await this.openChat(request, true, options);
    let finished = false;
    try {
      yield* contract === 'v1' ? v1Chunks(res, url) : v2Chunks(res, url);
      finished = true;
    } catch (error) {
      throw describeBrokenAnswer(error, url, options.signal).withRequestId(res.requestId);
    } finally {
      if (!finished) discardBody(res); // the caller stopped or it failed: close the connection now
    }
  }

  /** One vector per input text, in input order. Batched per the `embeddingBatch` limits. */
  async embeddings(input: readonly string[], options: EmbeddingOptions = {}): Promise<Float32Array[]> {
    const model = options.model ?? 'Embeddings';
    return embedInBatches(input, this.batchLimits, async (batch) => {
      const call: ServiceCall = { method: 'POST', path: '/embeddings', body: { model, input: batch }, accept: 'application/json', ...options };
      return this.callJson(call, EmbeddingsResponse, (response) => vectorsInInputOrder(response.data, batch.length, this.url(call.path)));
    });
  }

  /** The models the account can use (`data` of `GET /models`). */
  async models(options: RequestOptions = {}): Promise<ModelInfo[]> {
    const response = await this.callJson({ method: 'GET', path: '/models', accept: 'application/json', ...options }, ModelsResponse);
    return response.data;
  }

  /** Downloads a file the model generated (an image), by the id found in its reply. */
  async fileContent(fileId: string, options: RequestOptions = {}): Promise<{ bytes: Uint8Array; contentType: string }> {
    if (!FILE_ID.test(fileId)) throw new ServiceError('invalidRequest', `"${fileId.slice(0, 64)}" is not a valid file id.`);
    const call: ServiceCall = { method: 'GET', path: `/files/${fileId}/content`, accept: 'application/jpg', ...options };
    const res = await this.open(call);
    const bytes = await readBody(res, this.url(call.path), BODY_LIMITS.picture, options.signal);
    return { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), contentType: res.contentType || 'image/jpeg' };
  }

  /**
   * Uploads a file (`POST /files`) for a user message to attach by its id. A type or size the
   * service documents as refused is an `invalidRequest` before anything is sent.
   */
  async uploadFile(bytes: Uint8Array, options: UploadOptions): Promise<FileInfo> {
    checkUpload(bytes, options);
    const call: ServiceCall = { method: 'POST', path: '/files', form: multipartForm(bytes, options), accept: 'application/json', signal: options.signal };
    return this.callJson(call, FileInfo, undefined, mayUploadAgain);
  }

  /**
   * Deletes a file at the service (`POST /files/{id}/delete`): a picture or document uploaded for a
   * question, or a picture the model drew. One the service no longer has counts as deleted.
   */
  async deleteFile(fileId: string, options: RequestOptions = {}): Promise<void> {
    if (!FILE_ID.test(fileId)) throw new ServiceError('invalidRequest', `"${fileId.slice(0, 64)}" is not a valid file id.`);
    await this.callJson({ method: 'POST', path: `/files/${fileId}/delete`, accept: 'application/json', ...options }, DeletedFile).catch((error: unknown) => {
      if (!(error instanceof ServiceError && error.status === 404)) throw error;
    });
  }

  /** Token counts of each input text for a model. */
  async countTokens(input: readonly string[], options: RequestOptions & { model?: string } = {}): Promise<TokenCount[]> {
    const body = { model: options.model ?? 'GigaChat', input };
    return this.callJson({ method: 'POST', path: '/tokens/count', body, accept: 'application/json', ...options }, TokenCountResponse);
  }

  /** Remaining prepaid tokens per model (403 `forbidden` for postpaid accounts). */
  async balance(options: RequestOptions = {}): Promise<BalanceEntry[]> {
    return (await this.callJson({ method: 'GET', path: '/balance', accept: 'application/json', ...options }, BalanceResponse)).balance;
  }

  /**
   * Exchanges the key for a fresh access token now: the way to check a key the user just entered.
   * Resolves with the token's expiry (Unix ms); a rejected key is an `auth` error.
   */
  async authorize(options: RequestOptions = {}): Promise<{ expiresAtMs: number }> {
    return { expiresAtMs: (await this.tokens.renew(options.signal)).expiresAtMs };
  }

  /** Forgets the access token, e.g. after the key or the scope changed. */
  resetToken(): void {
    this.tokens.invalidate();
  }

  /** Closes pooled connections. The client cannot be used afterwards. */
  async dispose(): Promise<void> {
    await this.transport.close();
  }

  /**
   * The answer to `call`, parsed by `schema` and then by `interpret` (whose errors are stamped with
   * the response's request id, for the log).
   */
  private async callJson<T, R = T>(
    call: ServiceCall,
    schema: ZodType<T>,
    interpret: (value: T) => R = (value) => value as unknown as R,
    repeatable?: (error: ServiceError) => boolean,
  ): Promise<R> {
    // Reading the body belongs inside the retries: a connection reset mid-body is worth repeating
    // (for what costs nothing to ask again: see chat()).
    return withRetries(
      async () => {
        const res = await this.openOnce(call);
        const value = await readJson(res, schema, this.url(call.path), { signal: call.signal });
        try {
          return interpret(value);
        } catch (error) {
          throw error instanceof ServiceError ? error.withRequestId(res.requestId) : error;
        }
      },
      this.retriesOf(call),
      this.logger,
      call.signal,
      repeatable,
    );
  }

  private retriesOf(call: ServiceCall): RetryPolicy {
    return call.maxRetries === undefined ? this.retry : { ...this.retry, maxRetries: call.maxRetries };
  }

  /** A successful response to `call` (its body not yet read), after token refresh and retries. */
  private open(call: ServiceCall): Promise<HttpResponse> {
    return withRetries(() => this.openOnce(call), this.retriesOf(call), this.logger, call.signal);
  }

  /**
   * The chat request sent on the host's contract, retried until its answer starts. A 404 on the
   * current contract from a host without it sends it again on the previous one (see `ChatContracts`).
   */
  private async openChat(request: ChatRequest, stream: boolean, options: ChatOptions): Promise<{ res: HttpResponse; contract: ChatContract; url: string }> {
    const { contract, url } = this.contracts.chatEndpoint(this.options.baseUrl);
    const body = contract === 'v2' ? toV2Body(request, stream) : toV1Body(request, stream);
    const unavailable = contract === 'v1' ? (request.builtInTools ?? []).filter((tool) => tool !== 'image_generate') : [];
    if (unavailable.length > 0) this.logger.warn(`The previous contract (v1) has no ${unavailable.join(' or ')}: the question is answered without it.`);
    const call: ServiceCall = { method: 'POST', path: '/chat/completions', url, body, accept: stream ? 'text/event-stream' : 'application/json', ...options };
    try {
      return { res: await this.open(call), contract, url };
    } catch (error) {
      if (contract === 'v2' && this.contracts.fallBack(this.options.baseUrl, error, this.logger)) return this.openChat(request, stream, options);
      throw explainAttachmentRefusal(error, request);
    }
  }

  private async openOnce(call: ServiceCall): Promise<HttpResponse> {
    const badAddress = serviceUrlsProblem(this.options);
    if (badAddress) throw badAddress;
    const token = await this.tokens.getToken(call.signal);
    let res = await this.send(call, token);
    if (res.status === 401) {
      // The token expired early or was revoked: one fresh token, one more try, never a loop.
      discardBody(res);
      this.tokens.invalidate(token);
      res = await this.send(call, await this.tokens.getToken(call.signal));
    }
    if (res.status >= 200 && res.status < 300) return res;
    const error = await errorFromResponse(res, call.url ?? this.url(call.path), call.signal);
    throw error.kind === 'auth' ? refusedToken(error, this.options.scope) : error;
  }

  private send(call: ServiceCall, token: string): Promise<HttpResponse> {
    const headers = callHeaders(call, token, this.options);
    const body = callBody(call);
    return sendScheduled(this.options.scheduler, call, () =>
      this.transport.send({ method: call.method, url: call.url ?? this.url(call.path), headers, body, signal: call.signal }),
    );
  }

  private url(path: string): string {
    return `${this.options.baseUrl.replace(/\/+$/, '')}${path}`;
  }
}
