// The emulator's mutable state, shared by the server pipeline and the routes. One object per
// running emulator, so two emulators in one test process never see each other's tokens or files.
import type { IncomingMessage } from 'node:http';
import type { Random } from './random';
import type { TokenStore } from './tokens';
import type { CompletionNoise } from './completion-noise';
import type { LiveOptions } from './types';

/** A file the model generated (a text2image picture) or the client uploaded (POST /files). */
export interface StoredFile {
  /** X-Client-ID of the request that generated or uploaded the file, if it sent one: files are scoped by it. */
  clientId: string | undefined;
  content: Buffer;
  /** Set for uploads: what POST /files was told, so attachments can be checked and described. */
  upload?: { filename: string; contentType: string; kind: 'image' | 'document'; createdAt: number };
}

export interface EmulatorState {
  options: LiveOptions;
  tokens: TokenStore;
  files: Map<string, StoredFile>;
  /** X-Session-ID → prompt text of that session's previous request, for precached_prompt_tokens. */
  sessions: Map<string, string>;
  random: Random;
}

/** What a route gets: the state, the request (for headers) and its already-read body. */
export interface RouteContext {
  state: EmulatorState;
  req: IncomingMessage;
  body: string;
  /** The same body as bytes, for the one route that is not JSON (the multipart file upload). */
  raw: Buffer;
  /** Scope of the bearer token; empty on the token endpoint. */
  scope: string;
  /** An injected `functionCall` fault: the call the chat reply makes, offered or not. */
  steeredCall?: { name: string; arguments?: Record<string, unknown> };
  /** An injected `outputLimit` fault: the most tokens the model writes. */
  outputLimit?: number;
  /** An injected `completion` fault: the right code, and the form the reply gives it in. */
  steeredCompletion?: { missing: string; noise: CompletionNoise };
}
