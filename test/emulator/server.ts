// The request pipeline: read the body, record and count the request, stamp X-Request-Id, apply the
// concurrency limit, latency and injected fault, check the bearer token, route, deliver.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { deliver } from './deliver';
import type { FaultQueue } from './faults';
import { defaultMessage, header, isRecord, modelError, oauthError, parseJson, pause, readBody, writable, type Reply } from './http';
import { CHAT_V2_PATH, endpointOf, isModelHost, route, routePath } from './routes';
import { v1BodyOf } from './routes/chat-v2-body';
import type { EmulatorState } from './state';
import type { TokenCheck } from './tokens';
import type { AccountStreams, StreamTracker } from './stream-tracker';
import type { Endpoint, Fault, RecordedRequest, SentChat } from './types';

export interface Pipeline {
  state: EmulatorState;
  faults: FaultQueue;
  streams: StreamTracker;
  accountStreams: AccountStreams;
  record: (request: RecordedRequest) => void;
  /** Aborted when the emulator stops, so pending pauses and streams end at once. */
  stopSignal: AbortSignal;
}

function recordOf(req: IncomingMessage, path: string, endpoint: Endpoint | 'unknown', body: string): RecordedRequest {
  const recorded: RecordedRequest = { endpoint, method: req.method ?? 'GET', path, headers: { ...req.headers }, body, receivedAt: performance.now() };
  if (endpoint === 'chat') {
    const data = parseJson(body);
    recorded.stream = isRecord(data) && data.stream === true;
    recorded.contract = path === CHAT_V2_PATH ? 'v2' : 'v1';
    const view = isRecord(data) && recorded.contract === 'v2' ? v1BodyOf(data) : data;
    if (isRecord(view) && !('problem' in view)) recorded.chat = view as unknown as SentChat;
  }
  return recorded;
}

/** An injected status fault, with the error body format of the host it hits. */
function statusReply(fault: Extract<Fault, { kind: 'status' }>, endpoint: Endpoint | 'unknown'): Reply {
  const message = fault.message ?? defaultMessage(fault.status);
  const reply = endpoint === 'oauth' ? oauthError(fault.status, fault.status, message) : modelError(fault.status, message);
  if (fault.retryAfterSeconds !== undefined && reply.kind === 'json') {
    reply.headers = { 'Retry-After': String(fault.retryAfterSeconds) };
  }
  return reply;
}

function bearerCheck(state: EmulatorState, req: IncomingMessage): TokenCheck {
  return state.tokens.check(/^Bearer\s+(\S+)$/i.exec((header(req, 'authorization') ?? '').trim())?.[1]);
}

/** The model host wants a live bearer token; the token endpoint, the FIM server and unknown paths do not. */
function authorizeAndRoute(
  state: EmulatorState,
  req: IncomingMessage,
  { body, raw }: { body: string; raw: Buffer },
  path: string,
  endpoint: Endpoint | 'unknown',
  fault: Fault | undefined,
): Reply {
  if (endpoint === 'oauth' || endpoint === 'infill' || endpoint === 'unknown') return route(endpoint, { state, req, body, raw, scope: '' }, path);
  const check = bearerCheck(state, req);
  if (check.state === 'unknown') return modelError(401, 'Unauthorized');
  if (check.state === 'expired') return modelError(401, 'Token has expired');
  const steeredCall = fault?.kind === 'functionCall' ? fault : undefined;
  const steeredCompletion = fault?.kind === 'completion' ? fault : undefined;
  const outputLimit = fault?.kind === 'outputLimit' ? fault.tokens : undefined;
  return route(endpoint, { state, req, body, raw, scope: check.scope, steeredCall, steeredCompletion, outputLimit }, path);
}

/** The path as the service sees it, below the gateway's prefix; one outside the prefix matches no route. */
function withoutPrefix(url: string | undefined, prefix: string): string {
  if (!prefix) return url ?? '/';
  return url?.startsWith(`${prefix}/`) ? url.slice(prefix.length) : '/outside-the-prefix';
}

/** A stream of the account of the request's token, when it has a valid one (others are refused later, with 401). */
function takeAccountStream(state: EmulatorState, req: IncomingMessage, res: ServerResponse, streams: AccountStreams): boolean {
  const check = bearerCheck(state, req);
  return check.state !== 'ok' || streams.take(check.scope, state.options.streamsPerScope[check.scope], res);
}

export function createRequestHandler(pipeline: Pipeline): (req: IncomingMessage, res: ServerResponse) => void {
  const { state, faults, streams } = pipeline;
  let inFlight = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.on('error', () => undefined); // the client went away mid-write: nothing left to tell it
    const closed = new AbortController();
    res.once('close', () => closed.abort());
    const signal = AbortSignal.any([closed.signal, pipeline.stopSignal]);

    const raw = await readBody(req).catch(() => undefined);
    if (raw === undefined) return; // the client hung up while sending: there is no one to answer
    const body = raw.toString('utf8');
    const path = routePath(withoutPrefix(req.url, state.options.pathPrefix));
    const endpoint = endpointOf(path);
    const recorded = recordOf(req, path, endpoint, body);
    pipeline.record(recorded);
    res.setHeader('X-Request-Id', header(req, 'x-request-id') ?? randomUUID());

    // A slot is held from arrival until the response closes (for streams: until the last byte).
    const limited = isModelHost(path) && endpoint !== 'unknown';
    const rejected = limited && (inFlight >= state.options.maxConcurrent || !takeAccountStream(state, req, res, pipeline.accountStreams));
    if (limited && !rejected) {
      inFlight += 1;
      res.once('close', () => (inFlight -= 1));
    }
    const fault = rejected ? undefined : faults.take(recorded);

    const wait = state.options.latencyMs + (fault?.kind === 'slowFirstByte' ? fault.ms : 0);
    if (wait > 0 && !(await pause(wait, signal))) {
      if (closed.signal.aborted) recorded.abandoned = true;
      return;
    }
    if (fault?.kind === 'resetBeforeResponse') {
      req.socket.destroy();
      return;
    }

    const reply = rejected
      ? modelError(429, 'Too many requests')
      : fault?.kind === 'status'
        ? statusReply(fault, endpoint)
        : authorizeAndRoute(state, req, { body, raw }, path, endpoint, fault);
    const answered = fault?.kind === 'answerLost' ? modelError(fault.status ?? 502, 'Bad Gateway') : reply;
    await deliver(res, answered, fault, {
      options: state.options,
      random: state.random,
      signal,
      onOpen: (response) => streams.track(response),
    });
    // Hung up before the whole answer was written: a stream the client stopped reading, say.
    if (closed.signal.aborted && !res.writableFinished) recorded.abandoned = true;
  }

  return (req, res) => {
    handle(req, res).catch((error: unknown) => {
      // An emulator bug: make it loud in the test log and visible to the client as a 500.
      console.error('[emulator] request failed:', error);
      if (writable(res) && !res.headersSent) {
        res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ status: 500, message: 'Internal Server Error' }));
      }
    });
  };
}
