import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/**
 * A minimal HTTP proxy that only tunnels (CONNECT), as corporate proxies do for HTTPS. It records
 * each tunnel's target and the Proxy-Authorization it got; `refuseWith` answers every CONNECT
 * with that status instead, as a proxy that wants credentials does.
 */
export async function startConnectProxy(options: { refuseWith?: number } = {}) {
  const tunnels: { target: string; authorization?: string }[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((_req, res) => res.writeHead(405).end());
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    tunnels.push({ target: req.url ?? '', authorization: req.headers['proxy-authorization'] });
    client.on('error', () => undefined);
    if (options.refuseWith) {
      client.end(`HTTP/1.1 ${options.refuseWith} Refused\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    const [host, port] = splitAuthority(req.url ?? '');
    const upstream = connect(port, host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.once('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    async stop(): Promise<void> {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function splitAuthority(authority: string): [string, number] {
  const at = authority.lastIndexOf(':');
  return [authority.slice(0, at).replace(/^\[|\]$/g, ''), Number(authority.slice(at + 1))];
}
