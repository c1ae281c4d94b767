import type { ProxyOptions } from '../http';

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/**
 * The proxy a request to `target` goes through, or undefined for a direct connection. The rules
 * are those of undici's EnvHttpProxyAgent, which carries the real requests (see `Transport`): the
 * settings first, then HTTPS_PROXY / HTTP_PROXY; NO_PROXY entries match a host, its subdomains,
 * and optionally a port; `*` turns the proxy off. The connection check needs the answer to probe
 * the way the requests really take.
 */
export function proxyFor(target: URL, options: ProxyOptions = {}, env: NodeJS.ProcessEnv = process.env): URL | undefined {
  const proxy = target.protocol === 'https:' ? (options.url ?? env.https_proxy ?? env.HTTPS_PROXY ?? env.http_proxy ?? env.HTTP_PROXY) : (options.url ?? env.http_proxy ?? env.HTTP_PROXY);
  if (!proxy) return undefined;
  const noProxy = options.noProxy ?? env.no_proxy ?? env.NO_PROXY ?? '';
  if (isExcluded(target, noProxy)) return undefined;
  try {
    return new URL(proxy);
  } catch {
    return undefined; // undici refuses such a proxy too; the real request then fails and says why
  }
}

function isExcluded(target: URL, noProxy: string): boolean {
  if (noProxy.trim() === '*') return true;
  const hostname = target.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number.parseInt(target.port, 10) || DEFAULT_PORTS[target.protocol] || 0;
  for (const entry of noProxy.split(/[,\s]/)) {
    if (!entry) continue;
    const parsed = /^(.+):(\d+)$/.exec(entry);
    const excluded = (parsed ? parsed[1] : entry).replace(/^\*?\./, '').toLowerCase();
    const excludedPort = parsed ? Number.parseInt(parsed[2], 10) : 0;
    if (excludedPort && excludedPort !== port) continue;
    if (hostname === excluded || hostname.endsWith(`.${excluded}`)) return true;
  }
  return false;
}
