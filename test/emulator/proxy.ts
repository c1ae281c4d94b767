// A small but real HTTP proxy for tests: it tunnels CONNECT requests (what a client does for an
// https:// address behind a proxy), can demand Basic `Proxy-Authorization` as corporate proxies do
// (407 otherwise), and counts the tunnels it opened and where they went.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { listen } from './emulator';

export interface TestProxyOptions {
  /** When set, every CONNECT must carry these credentials (Basic), or it gets 407. */
  credentials?: { username: string; password: string };
}

export class TestProxy {
  /** `http://127.0.0.1:<port>`, without credentials. */
  readonly url: string;
  readonly port: number;
  /** `host:port` of every tunnel opened, in order. */
  readonly tunnels: string[] = [];
  /** Every CONNECT request, opened or refused: its target and the Proxy-Authorization it carried. */
  readonly requests: { target: string; authorization?: string }[] = [];
  /** CONNECT requests refused with 407. */
  refusedForAuth = 0;

  private readonly sockets = new Set<Socket>();
  private stopped?: Promise<void>;

  private constructor(
    private readonly server: Server,
    private readonly options: TestProxyOptions,
  ) {
    this.port = (server.address() as AddressInfo).port;
    this.url = `http://127.0.0.1:${this.port}`;
  }

  static async start(options: TestProxyOptions = {}): Promise<TestProxy> {
    const server = createServer();
    await listen(server, 0, '127.0.0.1');
    const proxy = new TestProxy(server, options);
    server.on('connection', (socket: Socket) => proxy.track(socket));
    server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => proxy.tunnel(req, client, head));
    // Only tunnels: plain forwarding of http:// requests is not something these tests need.
    server.on('request', (_req, res) => {
      res.writeHead(405, { Allow: 'CONNECT', 'Content-Type': 'text/plain' });
      res.end('This proxy only tunnels (CONNECT).\n');
    });
    return proxy;
  }

  /** The proxy URL with credentials in it (percent-encoded), as a user writes it in http.proxy. */
  urlWith(username: string, password: string): string {
    return `http://${encodeURIComponent(username)}:${encodeURIComponent(password)}@127.0.0.1:${this.port}`;
  }

  /** Closes the listener and every open connection and tunnel. Idempotent. */
  stop(): Promise<void> {
    this.stopped ??= new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      for (const socket of this.sockets) socket.destroy();
    });
    return this.stopped;
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }

  private tunnel(req: IncomingMessage, client: Socket, head: Buffer): void {
    client.on('error', () => undefined); // the client may hang up at any moment
    this.requests.push({ target: req.url ?? '', authorization: req.headers['proxy-authorization'] });
    if (!this.authorized(req.headers['proxy-authorization'])) {
      this.refusedForAuth += 1;
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test proxy"\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const target = parseTarget(req.url);
    if (!target) {
      client.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const upstream = connect(target.port, target.host);
    this.track(upstream);
    let established = false;
    upstream.once('connect', () => {
      established = true;
      // Relay small writes (streamed events) at once, as proxies do, instead of waiting for Nagle.
      upstream.setNoDelay(true);
      client.setNoDelay(true);
      this.tunnels.push(`${target.host}:${target.port}`);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.once('error', () => {
      // As a real proxy does when it cannot reach the host: 502 before the tunnel, a cut after.
      if (!established && client.writable) client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
      else client.destroy();
    });
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  }

  private authorized(header: string | string[] | undefined): boolean {
    const expected = this.options.credentials;
    if (!expected) return true;
    const match = /^Basic\s+(\S+)$/i.exec(Array.isArray(header) ? (header[0] ?? '') : (header ?? ''));
    if (!match) return false;
    const decoded = Buffer.from(match[1], 'base64').toString('utf8');
    return decoded === `${expected.username}:${expected.password}`;
  }
}

/** `host:port` of a CONNECT request (IPv6 literals in brackets). */
function parseTarget(authority: string | undefined): { host: string; port: number } | undefined {
  const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(authority ?? '');
  if (!match) return undefined;
  const port = Number(match[2]);
  if (!(port > 0 && port < 65536)) return undefined;
  return { host: match[1].replace(/^\[|\]$/g, ''), port };
}
