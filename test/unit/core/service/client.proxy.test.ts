import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { TestProxy } from '../../../emulator';
import type { Logger, ServiceClientOptions } from '../../../../src/core';
import { hello, rejectsWith, useEmulator } from '../../support/fixture';

/** A user name and a password with the characters that must be percent-encoded in a URL. */
const USER = 'CORP\\иванов';
const PASSWORD = 'p@ss:wörd/100%';
const PROXY_VARIABLES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY', 'no_proxy', 'NO_PROXY'];

/** Every line the client logged, to check for leaked credentials. */
function collectingLogger(lines: string[]): Logger {
  const push = (line: string) => void lines.push(line);
  return { debug: push, info: push, warn: push, error: push };
}

describe('ServiceClient through an HTTP proxy', () => {
  const t = useEmulator({ streamDelayMs: 0 });
  let proxy: TestProxy;
  let savedEnvironment: Record<string, string | undefined>;
  /** The auth host is reached as "localhost" and the API host as "127.0.0.1", so tunnels tell them apart. */
  let hosts: { auth: string; api: string };

  const client = (overrides: Partial<ServiceClientOptions> = {}) =>
    t.clientWith({ authUrl: t.emulator.authUrl.replace('127.0.0.1', 'localhost'), ...overrides });

  before(async () => {
    const port = new URL(t.emulator.baseUrl).port;
    hosts = { auth: `localhost:${port}`, api: `127.0.0.1:${port}` };
  });

  beforeEach(async () => {
    // The machine's own proxy variables must not decide these tests.
    savedEnvironment = Object.fromEntries(PROXY_VARIABLES.map((name) => [name, process.env[name]]));
    for (const name of PROXY_VARIABLES) delete process.env[name];
    proxy = await TestProxy.start();
  });

  afterEach(async () => {
    for (const [name, value] of Object.entries(savedEnvironment)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await proxy.stop();
  });

  it('tunnels both the token exchange and the API through proxy.url', async () => {
    const completion = await client({ proxy: { url: proxy.url } }).chat(hello);
    assert.ok(completion.choices[0].message.content);
    assert.ok(proxy.tunnels.includes(hosts.auth), `tunnels: ${proxy.tunnels.join(', ')}`);
    assert.ok(proxy.tunnels.includes(hosts.api), `tunnels: ${proxy.tunnels.join(', ')}`);
  });

  it('streams a reply through the tunnel', async () => {
    let text = '';
    for await (const chunk of client({ proxy: { url: proxy.url } }).chatStream(hello)) text += chunk.choices[0]?.delta.content ?? '';
    assert.match(text, /retry/);
    assert.ok(proxy.tunnels.includes(hosts.api));
  });

  it('uses HTTPS_PROXY from the environment when no proxy is configured', async () => {
    process.env.HTTPS_PROXY = proxy.url;
    await client().chat(hello);
    assert.deepEqual([...new Set(proxy.tunnels)].sort(), [hosts.api, hosts.auth].sort());
  });

  it('accepts a proxy variable written without a scheme, as http', async () => {
    process.env.https_proxy = `127.0.0.1:${proxy.port}`;
    await client().models();
    assert.ok(proxy.tunnels.includes(hosts.api));
  });

  it('prefers proxy.url over the environment', async () => {
    const other = await TestProxy.start();
    try {
      process.env.HTTPS_PROXY = other.url;
      await client({ proxy: { url: proxy.url } }).models();
      assert.equal(other.tunnels.length, 0);
      assert.ok(proxy.tunnels.length > 0);
    } finally {
      await other.stop();
    }
  });

  it('noProxy sends the listed host directly and the others through the proxy', async () => {
    await client({ proxy: { url: proxy.url, noProxy: '127.0.0.1' } }).chat(hello);
    assert.deepEqual(proxy.tunnels, [hosts.auth]);
  });

  it('noProxy matches domain suffixes and ports, and * bypasses everything', async () => {
    const port = new URL(t.emulator.baseUrl).port;
    await client({ proxy: { url: proxy.url, noProxy: `example.com, .localhost, 127.0.0.1:${port}` } }).chat(hello);
    await client({ proxy: { url: proxy.url, noProxy: '*' } }).chat(hello);
    assert.deepEqual(proxy.tunnels, []);
    await client({ proxy: { url: proxy.url, noProxy: '127.0.0.1:1' } }).models(); // another port: still proxied
    assert.deepEqual([...proxy.tunnels].sort(), [hosts.api, hosts.auth].sort());
  });

  it('NO_PROXY from the environment bypasses HTTPS_PROXY', async () => {
    process.env.HTTPS_PROXY = proxy.url;
    process.env.NO_PROXY = 'localhost,127.0.0.1';
    await client().chat(hello);
    assert.equal(proxy.tunnels.length, 0);
  });

  describe('with a proxy that requires credentials', () => {
    let secured: TestProxy;
    before(async () => {
      secured = await TestProxy.start({ credentials: { username: USER, password: PASSWORD } });
    });
    after(() => secured.stop());

    it('authenticates with the credentials in the proxy URL (percent-encoded)', async () => {
      const lines: string[] = [];
      await client({ proxy: { url: secured.urlWith(USER, PASSWORD) }, logger: collectingLogger(lines) }).chat(hello);
      assert.ok(secured.tunnels.includes(hosts.api) && secured.tunnels.includes(hosts.auth));
      assert.ok(
        lines.some((line) => line.includes(`through the proxy ${secured.url}`)),
        lines.join('\n'),
      );
    });

    it('authenticates with a ready Proxy-Authorization value (http.proxyAuthorization)', async () => {
      const authorization = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
      await client({ proxy: { url: secured.url, authorization } }).models();
      assert.ok(secured.tunnels.includes(hosts.api));
    });

    it('a wrong password is a proxy error that says the credentials were refused, and is not retried', async () => {
      const refusedBefore = secured.refusedForAuth;
      const lines: string[] = [];
      const error = await rejectsWith(
        client({ proxy: { url: secured.urlWith(USER, 'wrong-password-1') }, logger: collectingLogger(lines) }).chat(hello),
        'proxy',
      );
      assert.equal(error.code, 'PROXY_AUTH_REJECTED');
      assert.equal(error.proxy?.status, 407);
      assert.equal(error.proxy?.address, secured.url);
      assert.equal(error.proxy?.source, 'http.proxy');
      assert.match(error.message, /refused the credentials/);
      assert.equal(secured.refusedForAuth - refusedBefore, 1, 'one attempt: repeating a refused password cannot help');
      assertNoSecret([error.message, error.stack ?? '', JSON.stringify(error.proxy), ...lines], ['wrong-password-1', 'иванов']);
    });

    it('no credentials at all is a proxy error that says they are required', async () => {
      const error = await rejectsWith(client({ proxy: { url: secured.url } }).models(), 'proxy');
      assert.equal(error.code, 'PROXY_AUTH_REQUIRED');
    });

    it('the credentials appear in no log line and no error text, even on success', async () => {
      const lines: string[] = [];
      const logged = client({ proxy: { url: secured.urlWith(USER, PASSWORD) }, logger: collectingLogger(lines) });
      await logged.chat(hello);
      t.emulator.inject({ kind: 'status', status: 500 }, { endpoint: 'chat', times: Infinity });
      const error = await rejectsWith(logged.chat(hello), 'server');
      assert.ok(lines.length > 3, 'the client logged its requests');
      assertNoSecret([...lines, error.message], [PASSWORD, encodeURIComponent(PASSWORD), Buffer.from(`${USER}:${PASSWORD}`).toString('base64')]);
    });
  });

  it('a proxy that is down is a proxy error naming the proxy, not the service', async () => {
    const address = proxy.url;
    await proxy.stop();
    const lines: string[] = [];
    const error = await rejectsWith(
      client({ proxy: { url: `http://someone:secret-pass@${new URL(address).host}` }, logger: collectingLogger(lines) }).models(),
      'proxy',
    );
    assert.equal(error.code, 'PROXY_UNREACHABLE');
    assert.equal(error.proxy?.address, address);
    assert.match(error.message, new RegExp(`proxy ${address.replace(/[.:/]/g, '\\$&')}`));
    assert.match(error.message, /ECONNREFUSED/);
    assert.ok(!error.message.includes('localhost'), `the message names the service: ${error.message}`);
    assertNoSecret([error.message, ...lines], ['secret-pass']);
  });

  it('a proxy that accepts the connection and never answers is a proxy error after the request timeout, not after minutes', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => void sockets.add(socket.on('error', () => undefined))); // reads, never writes
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
    try {
      const error = await rejectsWith(client({ proxy: { url: address }, timeoutMs: 1_000, maxRetries: 0 }).models(), 'proxy');
      assert.equal(error.code, 'PROXY_SILENT');
      assert.equal(error.proxy?.address, address);
      assert.match(error.message, /did not answer the request to open a tunnel/);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it('a proxy that cannot reach the service refuses the tunnel: a proxy error with its status', async () => {
    const closed = await TestProxy.start(); // a free port, then nothing listens on it
    const unreachable = `https://127.0.0.1:${closed.port}/api/v1`;
    await closed.stop();
    const error = await rejectsWith(client({ baseUrl: unreachable, proxy: { url: proxy.url, noProxy: 'localhost' } }).models(), 'proxy');
    assert.equal(error.code, 'PROXY_REFUSED');
    assert.equal(error.proxy?.status, 502);
  });

  it('an address that is not a proxy URL is a proxy error without the credentials in it', async () => {
    const error = await rejectsWith(client({ proxy: { url: 'ftp://user:hunter22@proxy.example:21' } }).models(), 'proxy');
    assert.equal(error.code, 'PROXY_INVALID');
    assert.match(error.message, /ftp:\/\/proxy\.example:21/);
    assertNoSecret([error.message], ['hunter22']);
  });

  it('a password with a bare % is a proxy setting error on each request, not a client that fails to build', async () => {
    const pasted = 'p%ss-100%';
    const broken = client({ proxy: { url: `http://corp-user:${pasted}@${new URL(proxy.url).host}` } });
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await rejectsWith(broken.models(), 'proxy');
      assert.equal(error.code, 'PROXY_CREDENTIALS_ENCODING');
      assert.equal(error.proxy?.source, 'http.proxy');
      assertNoSecret([error.message], [pasted]);
    }
    assert.equal(proxy.tunnels.length, 0, 'nothing was sent with half-decoded credentials');
  });
});

function assertNoSecret(texts: string[], secrets: string[]): void {
  for (const text of texts) {
    for (const secret of secrets) assert.ok(!text.includes(secret), `"${secret}" leaked into: ${text}`);
  }
}
