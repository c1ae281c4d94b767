// The Emulator class: owns the certificates, the HTTPS server and the state, and gives tests their
// handles (URLs, CA, counts, fault injection, token expiry, stream tracking, stop).
import { randomInt as cryptoRandomInt } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Server as NetServer, Socket } from 'node:net';
import { generateCertificates, type Certificates } from './certificates';
import { ALL_SCOPES, DEMO_KEY } from './constants';
import { FaultQueue } from './faults';
import { seededRandom } from './random';
import { AUTH_PATH, MODEL_PREFIX } from './routes';
import { createRequestHandler } from './server';
import type { EmulatorState } from './state';
import { AccountStreams, StreamTracker } from './stream-tracker';
import { TokenStore } from './tokens';
import type { EmulatorOptions, Endpoint, Fault, FaultRule, LiveOptions, RecordedRequest } from './types';

function liveOptions(options: EmulatorOptions): LiveOptions {
  return {
    authorizationKey: options.authorizationKey ?? DEMO_KEY,
    scopes: options.scopes ?? [...ALL_SCOPES],
    tokenLifetimeMs: options.tokenLifetimeMs ?? 30 * 60_000,
    latencyMs: options.latencyMs ?? 0,
    maxConcurrent: options.maxConcurrent ?? Infinity,
    streamsPerScope: options.streamsPerScope ?? {},
    streamChunkBytes: options.streamChunkBytes ?? [1, 64],
    streamDelayMs: options.streamDelayMs ?? 2,
    maxBatch: options.maxBatch ?? 90,
    maxBatchChars: options.maxBatchChars ?? 100_000,
    contextTokens: options.contextTokens ?? 131_072,
    chatV2: options.chatV2 ?? true,
    infillApiKey: options.infillApiKey,
    pathPrefix: (options.pathPrefix ?? '').replace(/\/+$/, ''),
  };
}

/** URLs name 127.0.0.1 for wildcard binds (the certificate covers it) and bracket IPv6 literals. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

export class Emulator {
  readonly origin: string;
  readonly authUrl: string;
  readonly baseUrl: string;
  readonly caPem: string;
  readonly caPath: string;
  readonly caDer: Buffer;
  readonly authorizationKey: string;
  /** The seed actually used: print it when a streaming test fails, pass it back to replay the cuts. */
  readonly seed: number;
  readonly requests: RecordedRequest[] = [];

  private readonly counts = new Map<Endpoint, number>();
  private readonly faults = new FaultQueue();
  private readonly streams = new StreamTracker();
  private readonly accountStreams = new AccountStreams();
  private readonly stopping = new AbortController();
  /** Raw sockets, including ones still in the TLS handshake that the HTTP layer does not know yet. */
  private readonly sockets = new Set<Socket>();
  private stopped: Promise<void> | undefined;

  private constructor(
    private readonly server: Server,
    private readonly state: EmulatorState,
    private readonly certificates: Certificates,
    host: string,
    seed: number,
  ) {
    const { port } = server.address() as AddressInfo;
    this.origin = `https://${urlHost(host)}:${port}`;
    this.authUrl = this.origin + state.options.pathPrefix + AUTH_PATH;
    this.baseUrl = this.origin + state.options.pathPrefix + MODEL_PREFIX;
    this.caPem = certificates.caPem;
    this.caPath = certificates.caPath;
    this.caDer = certificates.caDer;
    this.authorizationKey = state.options.authorizationKey;
    this.seed = seed;
  }

  static async start(options: EmulatorOptions = {}): Promise<Emulator> {
    const certificates = await generateCertificates(options.certDir);
    const seed = options.seed ?? cryptoRandomInt(2 ** 31);
    const state: EmulatorState = {
      options: liveOptions(options),
      tokens: new TokenStore(),
      files: new Map(),
      sessions: new Map(),
      random: seededRandom(seed),
    };
    // keepAlive: TCP keep-alive on accepted sockets; HTTP keep-alive is Node's default anyway.
    const server = createServer({ key: certificates.serverKeyPem, cert: certificates.serverCertPem, keepAlive: true });
    const host = options.host ?? '127.0.0.1';
    await listen(server, options.port ?? 0, host);
    const emulator = new Emulator(server, state, certificates, host, seed);
    server.on('connection', (socket: Socket) => {
      emulator.connectionsAccepted++;
      emulator.sockets.add(socket);
      socket.once('close', () => emulator.sockets.delete(socket));
    });
    server.on(
      'request',
      createRequestHandler({
        state,
        faults: emulator.faults,
        streams: emulator.streams,
        accountStreams: emulator.accountStreams,
        stopSignal: emulator.stopping.signal,
        record: (request) => emulator.record(request),
      }),
    );
    return emulator;
  }

  private record(request: RecordedRequest): void {
    this.requests.push(request);
    if (request.endpoint !== 'unknown') this.counts.set(request.endpoint, this.count(request.endpoint) + 1);
  }

  count(endpoint: Endpoint): number {
    return this.counts.get(endpoint) ?? 0;
  }

  resetCounts(): void {
    this.counts.clear();
    this.requests.length = 0;
  }

  inject(fault: Fault, rule?: FaultRule): void {
    this.faults.add(fault, rule);
  }

  clearFaults(): void {
    this.faults.clear();
  }

  expireAllTokens(): void {
    this.state.tokens.expireAll();
  }

  setOptions(
    patch: Partial<
      Pick<EmulatorOptions, 'latencyMs' | 'maxConcurrent' | 'streamsPerScope' | 'tokenLifetimeMs' | 'contextTokens' | 'chatV2' | 'infillApiKey' | 'scopes'>
    >,
  ): void {
    const options = this.state.options;
    if ('infillApiKey' in patch) options.infillApiKey = patch.infillApiKey;
    if (patch.scopes !== undefined) options.scopes = [...patch.scopes];
    if (patch.chatV2 !== undefined) options.chatV2 = patch.chatV2;
    if (patch.contextTokens !== undefined) options.contextTokens = patch.contextTokens;
    if (patch.latencyMs !== undefined) options.latencyMs = patch.latencyMs;
    if (patch.maxConcurrent !== undefined) options.maxConcurrent = patch.maxConcurrent;
    if (patch.streamsPerScope !== undefined) options.streamsPerScope = patch.streamsPerScope;
    if (patch.tokenLifetimeMs !== undefined) options.tokenLifetimeMs = patch.tokenLifetimeMs;
  }

  /** Connections clients have opened since the start (each a TCP connect and a TLS handshake). */
  connectionsAccepted = 0;

  /** Requests refused for their account's streams (see `streamsPerScope`) since the start. */
  get refusedForStreams(): number {
    return this.accountStreams.refused;
  }

  get openStreams(): number {
    return this.streams.count;
  }

  waitForClosedStreams(): Promise<void> {
    return this.streams.whenAllClosed();
  }

  /**
   * A crash of the service: every connection drops at once and the port stops answering. The
   * certificates stay, so `restart()` brings the same server back.
   */
  async kill(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  /** Listens again on the same port after `kill()`. Like a restarted service, it forgot the tokens it issued. */
  async restart(): Promise<void> {
    this.state.tokens = new TokenStore();
    const { hostname, port } = new URL(this.origin);
    await listen(this.server, Number(port), hostname.replace(/^\[|\]$/g, ''));
  }

  /** Idempotent: stops pauses and streams, closes every socket, removes a temp cert dir. */
  stop(): Promise<void> {
    this.stopped ??= (async () => {
      this.stopping.abort();
      await this.kill();
      if (this.certificates.ownsDir) await rm(this.certificates.dir, { recursive: true, force: true });
    })();
    return this.stopped;
  }
}

/** Listens on `host:port`, rejecting (rather than emitting 'error') when it cannot. */
export function listen(server: NetServer, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
