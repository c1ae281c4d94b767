// Public types of the emulator. Kept apart from the implementation so tests can import the
// vocabulary (faults, endpoints, recorded requests) without pulling in the server code.
import type { CompletionNoise } from './completion-noise';

export interface EmulatorOptions {
  /** Interface to listen on. Default '127.0.0.1' (the server certificate covers it and 'localhost'). */
  host?: string;
  /** Port; 0 lets the OS pick a free one (the default), which keeps parallel test runs apart. */
  port?: number;
  /** The one Basic authorization key the token endpoint accepts. Default DEMO_KEY. */
  authorizationKey?: string;
  /** Scopes the key may request. Default all three: GIGACHAT_API_PERS, _B2B, _CORP. */
  scopes?: string[];
  /** Lifetime of issued tokens. Default 30 minutes; short values make expiry testable in seconds. */
  tokenLifetimeMs?: number;
  /** Fixed delay added before every response (both hosts). Default 0. */
  latencyMs?: number;
  /** Model-host requests in flight beyond this get 429. Default unlimited. */
  maxConcurrent?: number;
  /**
   * Streams per account by its token's scope: a request beyond its account's streams in flight gets
   * the service's 429. SERVICE_STREAMS is the service's quota; a scope not named is unlimited.
   * Default none (unlimited), `npm start` and `npm run emulator`: SERVICE_STREAMS.
   */
  streamsPerScope?: Readonly<Record<string, number>>;
  /** SSE bytes are written in pieces of a random size in this range, cut anywhere. Default [1, 64]. */
  streamChunkBytes?: [number, number];
  /** Delay between two SSE writes, so streaming is observable. 0 still yields (setImmediate). Default 2. */
  streamDelayMs?: number;
  /** Seeds the randomness (chunk cuts, embedding order) so a run can be replayed. Default: random. */
  seed?: number;
  /** Where the generated CA and server files go. Default a fresh temp dir, removed on stop. */
  certDir?: string;
  /** Embeddings: most texts in one request before 413. Default 90. */
  maxBatch?: number;
  /** Embeddings: most characters (all texts together) in one request before 413. Default 100,000. */
  maxBatchChars?: number;
  /** Chat: the model's context window; a longer prompt (by the emulator's token estimate) gets 413. Default 131,072 (GigaChat 2). */
  contextTokens?: number;
  /** Chat: whether the current contract (v2/chat/completions) is served; false answers it 404, as an older installation does. Default true. */
  chatV2?: boolean;
  /** The fill-in-the-middle server's bearer token: set, a request without it gets 401. Default none asked. */
  infillApiKey?: string;
  /**
   * A path every address starts with, as where a company gateway mounts the service
   * (`/model-gateway` gives `…/model-gateway/api/v1`). Default none.
   */
  pathPrefix?: string;
}

/** What can go wrong on purpose. A fault replaces or mangles the response to one request. */
export type Fault =
  | { kind: 'status'; status: number; message?: string; retryAfterSeconds?: number }
  | { kind: 'resetBeforeResponse' }
  /** The request is served (an upload is stored), but its answer is lost on the way: a gateway answers `status` (default 502) instead. */
  | { kind: 'answerLost'; status?: number }
  | { kind: 'resetMidStream'; afterEvents?: number }
  | { kind: 'malformedJson' }
  | { kind: 'wrongShape' }
  /** A list answer (`data`) one item short: the right shape with the wrong count. */
  | { kind: 'missingItem' }
  | { kind: 'truncatedStream' }
  /** A stream whose every event is sent, its end marker too, and whose connection is then left open: a server (or proxy) that does not close it. */
  | { kind: 'openAfterDone' }
  | { kind: 'slowFirstByte'; ms: number }
  | { kind: 'stall' }
  /** The answer's body replaced by `body` (the status and content type kept unless given): a token answer with a byte-order mark, say. */
  | { kind: 'body'; body: string; status?: number; contentType?: string }
  /**
   * A body that never ends: `prefix`, then filler until the client hangs up (a broken or hostile
   * server, a proxy's error page in a loop). With `declaredLength`, the headers announce that size.
   */
  | { kind: 'endlessBody'; prefix?: string; declaredLength?: number; status?: number; contentType?: string }
  /**
   * The chat reply is a call of `name`, whatever the request offered: a model steered by text it
   * read (a prompt injection) may name a tool it was never given, and the client must not run it.
   */
  | { kind: 'functionCall'; name: string; arguments?: Record<string, unknown> }
  /**
   * The chat reply reaches the model's own output limit after `tokens` tokens, as a long answer
   * does with no `max_tokens` asked: its text cut there, finish reason `length`.
   */
  | { kind: 'outputLimit'; tokens: number }
  /** A completion request is answered with `missing`, the right code, in one of the forms chat models give it (completion-noise.ts). */
  | { kind: 'completion'; missing: string; noise: CompletionNoise };

/** `files` downloads a file's content; `fileUpload` is POST /files. */
/** `infill`: a self-hosted fill-in-the-middle server's paths (routes/infill.ts), served on the same origin. */
export type Endpoint = 'oauth' | 'chat' | 'embeddings' | 'models' | 'files' | 'fileUpload' | 'tokensCount' | 'balance' | 'infill';

export interface RecordedRequest {
  endpoint: Endpoint | 'unknown';
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Set for chat requests: whether the body asked for SSE. */
  stream?: boolean;
  /** The client closed the connection before the answer was whole: before it began, or mid-stream (it cancelled the request). */
  abandoned?: boolean;
  /** When its body had been read (`performance.now()` of the emulator's process): a bench in the same process times the client's part with it. */
  receivedAt: number;
  /** Set for chat requests: the contract's version, from the path. */
  contract?: 'v1' | 'v2';
  /**
   * Set for chat requests: what the model reads, on either contract in the previous one's shape
   * (`messages` with text `content`, `attachments`, `function_call`, `functions`…), so a test
   * checks what was sent whichever contract carried it.
   */
  chat?: SentChat;
}

export interface SentChat {
  model?: string;
  stream?: boolean;
  messages: {
    role: string;
    content: string;
    attachments?: string[];
    function_call?: { name: string; arguments?: unknown };
    name?: string;
    tools_state_id?: string;
  }[];
  functions?: { name: string; description?: string; parameters?: unknown }[];
  function_call?: unknown;
  max_tokens?: number;
  /** Current contract only: the service's own tools offered, the reasoning effort, the history kept as sent, the ranker. */
  built_in_tools?: string[];
  reasoning_effort?: string;
  unnormalized_history?: boolean;
  ranker_options?: { enabled?: boolean; top_n?: number };
}

export interface FaultRule {
  endpoint?: Endpoint;
  /** How many matching requests the fault applies to. Default 1; Infinity allowed. */
  times?: number;
  match?: (request: RecordedRequest) => boolean;
}

/** The options the running server reads on every request; setOptions() may change some of them. */
export interface LiveOptions {
  authorizationKey: string;
  scopes: string[];
  tokenLifetimeMs: number;
  latencyMs: number;
  maxConcurrent: number;
  streamsPerScope: Readonly<Record<string, number>>;
  streamChunkBytes: [number, number];
  streamDelayMs: number;
  maxBatch: number;
  maxBatchChars: number;
  contextTokens: number;
  chatV2: boolean;
  infillApiKey?: string;
  pathPrefix: string;
}
