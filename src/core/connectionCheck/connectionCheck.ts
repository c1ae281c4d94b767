import { lookup } from 'node:dns/promises';
import { abortable, cancelled } from '../base/abortable';
import type { ServiceClient } from '../service/client';
import { ServiceError } from '../serviceError';
import { redactUrl, type ProxyOptions } from '../network/http';
import { describeTransportError } from '../network/transportErrors';
import { ProxyRoutes } from '../network/proxyRoutes';
import { invalidUrlSetting, serviceUrlsProblem } from '../service/serviceUrls';
import { trustedRoots } from '../network/trust';
import { probeTls, type TlsProbeResult } from './tlsProbe';

/** `settings` appears only when an address in the settings is no https URL: nothing else can run then. */
export type CheckStepId = 'settings' | 'dns' | 'tls' | 'token' | 'model';

/** The longest wait for a name lookup, which Node cannot cancel (the system resolver may hang). */
const LOOKUP_TIMEOUT_MS = 10_000;

/** One step of the connection check and what it found. */
export interface CheckStep {
  id: CheckStepId;
  /** The service host this step is about (`ngw.devices.sberbank.ru`, `host:9443`, a URL), or for `settings` the address at fault (`authUrl`, `baseUrl`), which the host names as its setting. */
  target: string;
  status: 'passed' | 'failed' | 'skipped';
  /** The proxy the step went through (credentials removed), when one applies to the target. */
  proxy?: string;
  /** dns: the name looked up (the proxy's, when the proxy looks up the target itself). */
  lookedUp?: string;
  addresses?: string[];
  tls?: TlsProbeResult;
  tokenExpiresAtMs?: number;
  models?: string[];
  /** Why a failed step failed, as the rest of the extension describes errors. */
  error?: ServiceError;
}

export interface ConnectionCheckOptions {
  authUrl: string;
  baseUrl: string;
  /** Extra trusted roots (PEM), the same the client uses. */
  ca?: readonly string[];
  proxy?: ProxyOptions;
  /** The configured client: it runs the token exchange and the model call. */
  client: Pick<ServiceClient, 'authorize' | 'models'>;
  signal?: AbortSignal;
  /** Called as each step starts, to show progress. */
  onStep?: (step: Pick<CheckStep, 'id' | 'target'>) => void;
}

interface PlannedStep {
  id: CheckStepId;
  target: string;
  run: (step: CheckStep) => Promise<void>;
}

/**
 * Checks the way to the service step by step, as a person would to find where it breaks: name
 * lookup of both hosts, a TLS handshake with each (the chain's subjects and its root), the token
 * exchange, one model call (`GET /models`). Steps run in order; after a failure the rest are
 * `skipped`, since each needs the one before. Never throws, except when cancelled.
 */
export async function checkConnection(options: ConnectionCheckOptions): Promise<CheckStep[]> {
  const steps: CheckStep[] = [];
  let failed = false;
  for (const planned of plan(options)) {
    const step: CheckStep = { id: planned.id, target: planned.target, status: 'skipped' };
    steps.push(step);
    if (failed) continue;
    if (options.signal?.aborted) throw cancelled();
    options.onStep?.(step);
    try {
      await planned.run(step);
      step.status = 'passed';
    } catch (error) {
      if (options.signal?.aborted) throw cancelled(error);
      const failure = error instanceof ServiceError ? error : describeTransportError(error, planned.target, options.signal);
      if (failure.kind === 'cancelled') throw failure;
      step.status = 'failed';
      step.error = failure;
      failed = true;
    }
  }
  return steps;
}

function plan(options: ConnectionCheckOptions): PlannedStep[] {
  const badAddress = serviceUrlsProblem(options);
  if (badAddress) return planWithBadAddress(badAddress, options);
  // The same choice of proxy as the requests make (see Transport), so the check probes their way.
  const routes = new ProxyRoutes(options.proxy);
  const urls = [new URL(options.authUrl), new URL(options.baseUrl)];
  const hostnames = unique(urls, (url) => url.hostname);
  const origins = unique(urls, (url) => url.host);
  // Listed once for every handshake: the runtime's and the system's roots are read anew each time.
  const roots = trustedRoots(options.ca);
  return [
    ...hostnames.map((url) => ({
      id: 'dns' as const,
      target: url.hostname.replace(/^\[|\]$/g, ''),
      run: (step: CheckStep) => lookUp(url, step, routes, options.signal),
    })),
    ...origins.map((url) => ({ id: 'tls' as const, target: url.host, run: (step: CheckStep) => shakeHands(url, step, routes, roots, options.signal) })),
    ...serviceCalls(options),
  ];
}

/** The token exchange and the model call: the two requests every chat makes. */
function serviceCalls(options: ConnectionCheckOptions): PlannedStep[] {
  return [
    {
      id: 'token',
      target: redactUrl(options.authUrl),
      run: async (step) => {
        step.tokenExpiresAtMs = (await options.client.authorize({ signal: options.signal })).expiresAtMs;
      },
    },
    {
      id: 'model',
      target: redactUrl(`${options.baseUrl.replace(/\/+$/, '')}/models`),
      run: async (step) => {
        step.models = (await options.client.models({ signal: options.signal })).map((model) => model.id);
      },
    },
  ];
}

/** A mistyped address fails the check at once, naming the setting; the requests are shown skipped. */
function planWithBadAddress(problem: ServiceError, options: ConnectionCheckOptions): PlannedStep[] {
  return [
    {
      id: 'settings',
      target: invalidUrlSetting(problem) ?? 'baseUrl',
      run: () => Promise.reject(problem),
    },
    ...serviceCalls(options),
  ];
}

/** With a proxy, the proxy looks the service up: then it is the proxy's name that must resolve here. */
async function lookUp(url: URL, step: CheckStep, routes: ProxyRoutes, signal: AbortSignal | undefined): Promise<void> {
  const proxy = routes.for(url.toString());
  const name = (proxy ? new URL(proxy.address) : url).hostname.replace(/^\[|\]$/g, '');
  if (proxy) step.proxy = proxy.address;
  step.lookedUp = name;
  const deadline = AbortSignal.timeout(LOOKUP_TIMEOUT_MS);
  try {
    step.addresses = (await abortable(lookup(name, { all: true }), signal ? AbortSignal.any([signal, deadline]) : deadline)).map((entry) => entry.address);
  } catch (error) {
    if (signal?.aborted) throw cancelled(error);
    if (deadline.aborted) throw new ServiceError('timeout', `The name ${name} was not resolved within ${LOOKUP_TIMEOUT_MS / 1000} s.`, { code: 'ETIMEOUT' });
    const code = (error as NodeJS.ErrnoException).code ?? 'ENOTFOUND';
    // The proxy's own name, not the service's: the same error, and buttons, as a request through it gets.
    if (proxy) {
      throw new ServiceError('proxy', `The name of the proxy ${proxy.address} (from ${proxy.source}) could not be resolved (${code}).`, {
        code: 'PROXY_UNREACHABLE',
        proxy: { address: proxy.address, source: proxy.source },
        cause: error,
      });
    }
    throw new ServiceError('network', `The name ${name} could not be resolved (${code}).`, { code, cause: error });
  }
}

async function shakeHands(url: URL, step: CheckStep, routes: ProxyRoutes, roots: string[], signal: AbortSignal | undefined): Promise<void> {
  const proxy = routes.for(url.toString());
  if (proxy) step.proxy = proxy.address;
  const result = await probeTls({ url: url.toString(), roots, proxy, signal });
  step.tls = result;
  if (!result.authorized) {
    // The same classification as a failed request, so the fix offered is the same too.
    throw describeTransportError(Object.assign(new Error(`TLS verification failed: ${result.errorCode}`), { code: result.errorCode }), url.toString());
  }
}

function unique(urls: URL[], key: (url: URL) => string): URL[] {
  const seen = new Map<string, URL>();
  for (const url of urls) if (!seen.has(key(url))) seen.set(key(url), url);
  return [...seen.values()];
}
