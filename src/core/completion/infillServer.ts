import { ServiceError } from '../serviceError';
import { Transport, type ProxyOptions } from '../network/http';
import type { Logger } from '../base/logger';
import { errorFromResponse, readJson } from '../service/responseBody';
import { cleanInfill } from './cleanCompletion';
import type { Completion, CompletionRequest } from './completeAt';
import { fileWindow } from './fillPrompt';
import { infillReply, infillRequest, type InfillServerKind } from './infillWire';

export interface InfillServerOptions {
  kind: InfillServerKind;
  /** The server's address: `http://gpu-box:11434`. */
  url: string;
  /** The model the server runs, by the server's name for it. */
  model: string;
  /** For `openai`: the model's FIM tokens (a known name, or a template); none sends `suffix`. */
  template?: string;
  /** A bearer token, when the server (or the gateway before it) asks for one. */
  apiKey?: () => Promise<string | undefined>;
  /** Extra trusted roots (PEM) and the proxy: the same as the service's. */
  ca?: readonly string[];
  proxy?: ProxyOptions;
  logger: Logger;
}

/** Longest wait for a completion server's answer: a suggestion later than this is not wanted. */
const TIMEOUT_MS = 15_000;

/**
 * Completions from a fill-in-the-middle server on the company's own machines (Ollama, llama.cpp's
 * server, vLLM or any OpenAI-compatible one), so code can stay there. Asked with the same window of
 * the file as the service is, through the same proxy and trusted roots; its answer is the missing
 * text already, so only what may run past the hole is cleaned off (cleanInfill).
 */
export class InfillServer {
  private readonly transport: Transport;

  constructor(private readonly options: InfillServerOptions) {
    // A server on this machine (Ollama's default) is reached directly: through a proxy it would not be found, and its key would pass the proxy.
    this.transport = new Transport({ ca: options.ca, proxy: options.proxy, directLoopback: true, timeoutMs: TIMEOUT_MS, logger: options.logger });
  }

  /** The model and where it runs, as the status bar names it. */
  get name(): string {
    return `${this.options.model} (${hostOf(this.options.url)})`;
  }

  async complete(request: CompletionRequest, options: { signal?: AbortSignal }): Promise<Completion> {
    const { kind, model, template } = this.options;
    const { prefix, suffix } = fileWindow(request.text, request.offset, request.budgetChars);
    const { path, body } = infillRequest(kind, {
      model,
      prefix,
      suffix,
      neighbours: request.neighbours ?? [],
      maxTokens: request.maxTokens,
      multiline: request.multiline,
      template,
    });
    const url = joinUrl(this.options.url, path);
    const key = await this.options.apiKey?.();
    const res = await this.transport.send({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', accept: 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify(body),
      signal: options.signal,
    });
    if (res.status < 200 || res.status >= 300) throw await errorFromResponse(res, url, options.signal);
    const reply = await readJson(res, infillReply(kind), url, { signal: options.signal });
    return { text: cleanInfill(reply.text, { prefix, suffix, multiline: request.multiline, indent: request.indent }) };
  }

  dispose(): Promise<void> {
    return this.transport.close();
  }
}

/** The server's address with the kind's path after it, the address's own path kept (a gateway's `/ollama`). */
function joinUrl(base: string, path: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(base.trim());
  } catch {
    parsed = undefined;
  }
  // `gpu-box:11434` parses, as a URL of the scheme `gpu-box:`: only http and https are addresses here.
  if (!parsed || !/^https?:$/.test(parsed.protocol)) {
    throw new ServiceError('invalidRequest', `The completion server's address is not an http(s) URL: ${base}`, { code: 'INVALID_SERVER_URL' });
  }
  // An address given with the path already (`…/v1`) is not given it twice.
  const own = parsed.pathname.replace(/\/+$/, '');
  parsed.pathname = own.endsWith('/v1') && path.startsWith('/v1/') ? `${own}${path.slice(3)}` : `${own}${path}`;
  return parsed.toString();
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
