// A stand-in for the official download address of the Russian Trusted Root CA, for tests that
// point the extension's pin at the emulator's own CA. It is a separate HTTPS server, with a
// certificate from a CA of its own (the "public web CA"): the real download host is trusted by
// ordinary means while the service's root is not, and tests reproduce exactly that by trusting
// this host's CA and not the emulator's.
import { X509Certificate } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { generateCertificates, generateLookalikeCa, type Certificates } from './certificates';

/** What `/current.cer` answers; tests switch it to reproduce each outcome of a download. */
export type DownloadVariant = 'genuine' | 'genuinePem' | 'impostor' | 'notCertificate' | 'refused';

const WEB_CA_SUBJECT = '/CN=GigaChat Emulator Test Public Web CA';

export class CertificateDownloadHost {
  readonly origin: string;
  /** The CA of this host's own TLS certificate: trust it to reach the host. */
  readonly caPem: string;
  readonly caPath: string;
  /** Requests received, by path. */
  readonly requests: string[] = [];
  private current: DownloadVariant = 'genuine';
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    private readonly certificates: Certificates,
    private readonly files: Record<string, { status: number; type: string; body: Buffer; headers?: Record<string, string> }>,
  ) {
    this.origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    this.caPem = certificates.caPem;
    this.caPath = certificates.caPath;
  }

  /**
   * Serves `genuinePem` (the certificate the test pin names) and a look-alike with the same
   * subject but another key:
   *   /root.cer (DER), /root.pem, /impostor.cer, /portal.html (a proxy's login page),
   *   /huge.cer (1 MiB), /moved.cer (a redirect to /root.cer), /current.cer (see `serve`);
   *   any other path is refused with 403.
   */
  static async start(genuinePem: string): Promise<CertificateDownloadHost> {
    const certificates = await generateCertificates(undefined, WEB_CA_SUBJECT);
    const genuine = new X509Certificate(genuinePem);
    const subject = genuine.subject
      .split('\n')
      .map((part) => `/${part}`)
      .join('');
    const impostor = new X509Certificate(await generateLookalikeCa(certificates.dir, subject));
    const der = (type: string, body: Buffer) => ({ status: 200, type, body });
    const files = {
      '/root.cer': der('application/pkix-cert', Buffer.from(genuine.raw)),
      '/root.pem': der('application/x-pem-file', Buffer.from(genuine.toString())),
      '/impostor.cer': der('application/pkix-cert', Buffer.from(impostor.raw)),
      '/portal.html': der('text/html', Buffer.from('<html><body>Please sign in to the corporate proxy.</body></html>')),
      '/huge.cer': der('application/pkix-cert', Buffer.alloc(1024 * 1024, 0x30)),
      '/moved.cer': { status: 302, type: 'text/plain', body: Buffer.alloc(0), headers: { Location: '/root.cer' } },
    };
    const server = createServer({ key: certificates.serverKeyPem, cert: certificates.serverCertPem });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const host = new CertificateDownloadHost(server, certificates, files);
    server.on('connection', (socket: Socket) => {
      host.sockets.add(socket);
      socket.once('close', () => host.sockets.delete(socket));
    });
    server.on('request', (req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      host.requests.push(path);
      const file = host.files[path === '/current.cer' ? host.currentPath() : path];
      if (!file) {
        res.writeHead(403, { 'Content-Type': 'text/plain' }).end('Forbidden');
        return;
      }
      res.writeHead(file.status, { 'Content-Type': file.type, ...file.headers }).end(file.body);
    });
    return host;
  }

  url(path: string): string {
    return `${this.origin}${path}`;
  }

  /** What `/current.cer` answers from now on. */
  serve(variant: DownloadVariant): void {
    this.current = variant;
  }

  private currentPath(): string {
    const paths: Record<DownloadVariant, string> = {
      genuine: '/root.cer',
      genuinePem: '/root.pem',
      impostor: '/impostor.cer',
      notCertificate: '/portal.html',
      refused: '/refused',
    };
    return paths[this.current];
  }

  async stop(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
    await rm(this.certificates.dir, { recursive: true, force: true });
  }
}
