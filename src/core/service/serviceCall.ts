import type { Scheduling } from '../streams/scheduledSend';

/**
 * One request to the model host, as a method of the client describes it: what is sent, what is
 * accepted back, and how it waits for a stream of the account, is retried and stopped.
 */
export interface ServiceCall {
  method: 'GET' | 'POST';
  path: string;
  /** Instead of `path` under the base URL: the chat endpoint of the host's contract. */
  url?: string;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is, instead of `body`: a multipart upload. */
  form?: { body: Uint8Array; contentType: string };
  accept: string;
  sessionId?: string;
  signal?: AbortSignal;
  priority?: Scheduling['priority'];
  maxWaitMs?: number;
  onWait?: Scheduling['onWait'];
  maxRetries?: number;
}

/** What of the client's options goes into every request's headers. */
export interface CallerIdentity {
  /** Extra headers on every model-host request. */
  headers?: Record<string, string>;
  userAgent?: string;
  /** Sent as `X-Client-ID`; generated files are scoped to it. */
  clientId?: string;
}

/** The headers `call` is sent with, the access token `token` among them. */
export function callHeaders(call: ServiceCall, token: string, identity: CallerIdentity): Record<string, string> {
  const headers: Record<string, string> = {
    ...identity.headers,
    Authorization: `Bearer ${token}`,
    Accept: call.accept,
    'User-Agent': identity.userAgent ?? 'gigachat-vscode',
  };
  if (identity.clientId) headers['X-Client-ID'] = identity.clientId;
  if (call.sessionId) headers['X-Session-ID'] = call.sessionId;
  if (call.body !== undefined) headers['Content-Type'] = 'application/json';
  if (call.form) headers['Content-Type'] = call.form.contentType;
  return headers;
}

/** What `call` sends: its multipart form as it is, or its body as JSON. */
export function callBody(call: ServiceCall): Uint8Array | string | undefined {
  return call.form ? call.form.body : call.body === undefined ? undefined : JSON.stringify(call.body);
}
