// The emulator's mutable state, shared by the server pipeline and the routes. One object per
// running emulator, so two emulators in one test process never see each other's tokens or files.
import type { IncomingMessage } from 'node:http';
import type { Random } from './random';
import type { TokenStore } from './tokens';
import type { LiveOptions } from './types';

export interface GeneratedFile {
  /** X-Client-ID of the request that generated the file, if it sent one: files are scoped by it. */
  clientId: string | undefined;
  content: Buffer;
}

export interface EmulatorState {
  options: LiveOptions;
  tokens: TokenStore;
  files: Map<string, GeneratedFile>;
  /** X-Session-ID → prompt text of that session's previous request, for precached_prompt_tokens. */
  sessions: Map<string, string>;
  random: Random;
}

/** What a route gets: the state, the request (for headers) and its already-read body. */
export interface RouteContext {
  state: EmulatorState;
  req: IncomingMessage;
  body: string;
  /** Scope of the bearer token; empty on the token endpoint. */
  scope: string;
}
