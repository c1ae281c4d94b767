import type * as Undici from 'undici';
import type { Dispatcher } from 'undici';
import type { ConnectionOptions } from 'node:tls';
import type { Proxy } from './proxyRoutes';
import { proxyRefusal, proxySilence } from './transportErrors';

type PoolConnectOptions = Omit<Dispatcher.ConnectOptions, 'origin'>;
type ConnectCallback = (err: Error | null, data: Dispatcher.ConnectData) => void;

/**
 * An undici `ProxyAgent` that tunnels (CONNECT) through `proxy`, sending its `Proxy-Authorization`.
 * undici reports a refused CONNECT only as the text "Proxy response (407) !== 200"; the pool that
 * talks to the proxy here turns the refusal into a typed `proxy` error carrying the status instead.
 * The CONNECT waits `timeoutMs` at most, as requests do (undici's own default is 5 minutes), and a
 * proxy that stays silent is named as the culprit, not the service behind it.
 */
export function createProxyAgent(undici: typeof Undici, proxy: Proxy, tls: ConnectionOptions, keepAliveTimeout: number, timeoutMs: number): Dispatcher {
  class TunnelPool extends undici.Pool {
    override connect(options: PoolConnectOptions): Promise<Dispatcher.ConnectData>;
    override connect(options: PoolConnectOptions, callback: ConnectCallback): void;
    override connect(options: PoolConnectOptions, callback?: ConnectCallback): Promise<Dispatcher.ConnectData> | void {
      const opened = super.connect(options).then(
        (data) => {
          if (data.statusCode === 200) return data;
          data.socket.on('error', () => undefined).destroy();
          throw proxyRefusal(data.statusCode, proxy, options.path);
        },
        (error: unknown) => {
          throw (error as { code?: string } | undefined)?.code === 'UND_ERR_HEADERS_TIMEOUT'
            ? proxySilence(proxy, options.path, timeoutMs, error)
            : (error as Error);
        },
      );
      if (!callback) return opened;
      opened.then(
        (data) => callback(null, data),
        (error: Error) => callback(error, undefined as never),
      );
    }
  }
  return new undici.ProxyAgent({
    uri: proxy.address,
    token: proxy.authorization,
    requestTls: tls, // the TLS session to the service, inside the tunnel
    proxyTls: tls, // an https:// proxy itself (corporate roots may be needed there too)
    keepAliveTimeout,
    clientFactory: (origin, options) => new TunnelPool(origin, { ...options, headersTimeout: timeoutMs, bodyTimeout: timeoutMs }),
  });
}
