import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { checkConnection, type CheckStep, type ServiceClient } from '../../../../src/core';
import { TestProxy } from '../../../emulator';
import { rejectsWith, useEmulator } from '../../support/fixture';

/** `id target status` per step: what a person reads first in the report. */
const outline = (steps: CheckStep[]) => steps.map((s) => `${s.id} ${s.status}`);

describe('connection check', () => {
  const fixture = useEmulator();
  const run = (client: ServiceClient, overrides: Partial<Parameters<typeof checkConnection>[0]> = {}) =>
    checkConnection({ authUrl: fixture.emulator.authUrl, baseUrl: fixture.emulator.baseUrl, ca: [fixture.emulator.caPem], client, ...overrides });

  it('passes every step against a reachable, trusted service, and lists the chain up to its root', async () => {
    const started: string[] = [];
    const steps = await run(fixture.client, { onStep: (step) => started.push(step.id) });
    // One host serves both addresses here, so one lookup and one handshake.
    assert.deepEqual(outline(steps), ['dns passed', 'tls passed', 'token passed', 'model passed']);
    assert.deepEqual(started, ['dns', 'tls', 'token', 'model']);
    const [dns, tls, token, model] = steps;
    assert.deepEqual(dns.addresses, ['127.0.0.1']);
    assert.equal(tls.target, new URL(fixture.emulator.origin).host);
    assert.deepEqual(
      tls.tls?.chain.map((c) => c.subject),
      ['CN=localhost', 'CN=GigaChat Emulator Test Root CA'],
    );
    assert.match(tls.tls?.protocol ?? '', /^TLSv1\.[23]$/);
    assert.ok((token.tokenExpiresAtMs ?? 0) > Date.now());
    assert.ok(model.models?.includes('GigaChat'));
  });

  it('stops at the handshake when the root is not trusted, naming the root the chain ends in', async () => {
    const untrusting = fixture.clientWith({ ca: [] });
    const steps = await run(untrusting, { ca: [] });
    assert.deepEqual(outline(steps), ['dns passed', 'tls failed', 'token skipped', 'model skipped']);
    const tls = steps[1];
    assert.equal(tls.error?.kind, 'tls');
    assert.match(tls.error?.code ?? '', /UNABLE_TO_|SELF_SIGNED/);
    assert.equal(tls.tls?.authorized, false);
    assert.deepEqual(
      tls.tls?.chain.map((c) => [c.subject, c.issuer]),
      [['CN=localhost', 'CN=GigaChat Emulator Test Root CA']],
    );
    assert.equal(fixture.emulator.count('oauth'), 0, 'nothing was sent to a server that could not be verified');
  });

  it('reports a rejected key at the token step, with the service reached', async () => {
    const steps = await run(fixture.clientWith({ authorizationKey: 'bm90OmEta2V5' }));
    assert.deepEqual(outline(steps), ['dns passed', 'tls passed', 'token failed', 'model skipped']);
    assert.equal(steps[2].error?.kind, 'auth');
  });

  it('reports a model host that fails after the token was issued', async () => {
    fixture.emulator.inject({ kind: 'status', status: 403 }, { endpoint: 'models' });
    const steps = await run(fixture.client);
    assert.deepEqual(outline(steps), ['dns passed', 'tls passed', 'token passed', 'model failed']);
    assert.equal(steps[3].error?.kind, 'forbidden');
  });

  it('reports a name that does not resolve, for each host separately', async () => {
    const steps = await run(fixture.client, { baseUrl: 'https://gigachat.invalid/api/v1' });
    assert.deepEqual(outline(steps), ['dns passed', 'dns failed', 'tls skipped', 'tls skipped', 'token skipped', 'model skipped']);
    assert.equal(steps[1].target, 'gigachat.invalid');
    assert.equal(steps[1].error?.kind, 'network');
    assert.match(steps[1].error?.code ?? '', /^(ENOTFOUND|EAI_AGAIN|EAI_NONAME)$/);
  });

  it('stops at once on an address without https://, naming the setting, before anything is sent', async () => {
    const steps = await run(fixture.client, { baseUrl: fixture.emulator.baseUrl.replace('https://', '') });
    assert.deepEqual(outline(steps), ['settings failed', 'token skipped', 'model skipped']);
    assert.equal(steps[0].target, 'baseUrl', 'the core names the address; the host names its setting');
    assert.equal(steps[0].error?.kind, 'invalidRequest');
    assert.equal(steps[0].error?.code, 'INVALID_BASE_URL');
    assert.equal(fixture.emulator.count('oauth'), 0);
  });

  describe('cancelled', () => {
    /** A server that accepts connections and never says a word: a handshake with it waits forever. */
    let silent: net.Server;
    let silentUrl = '';
    const sockets = new Set<net.Socket>();
    before(async () => {
      silent = net.createServer((socket) => sockets.add(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      silentUrl = `https://localhost:${(silent.address() as net.AddressInfo).port}`;
    });
    after(() => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => silent.close(resolve));
    });

    for (const at of ['dns', 'tls'] as const) {
      it(`ends the check at once when cancelled during the ${at} step, even with a server that never answers`, async () => {
        const controller = new AbortController();
        const check = run(fixture.client, {
          authUrl: `${silentUrl}/api/v2/oauth`,
          baseUrl: `${silentUrl}/api/v1`,
          signal: controller.signal,
          onStep: (step) => {
            if (step.id === at) setImmediate(() => controller.abort());
          },
        });
        await rejectsWith(check, 'cancelled');
      });
    }
  });

  describe('behind a proxy', () => {
    it('looks up the proxy instead of the service, and shakes hands through the tunnel', async () => {
      const proxy = await TestProxy.start();
      try {
        const through = { url: proxy.url.replace('127.0.0.1', 'localhost'), noProxy: '' };
        const steps = await run(fixture.clientWith({ proxy: through }), { proxy: through });
        assert.deepEqual(outline(steps), ['dns passed', 'tls passed', 'token passed', 'model passed']);
        assert.equal(steps[0].lookedUp, 'localhost');
        assert.equal(steps[1].proxy, through.url);
        assert.ok(proxy.tunnels.length >= 2, 'the handshake and the requests went through the proxy');
        assert.ok(proxy.tunnels.every((target) => target === new URL(fixture.emulator.origin).host));
      } finally {
        await proxy.stop();
      }
    });

    it('reports a proxy whose name does not resolve as the proxy’s fault, as a request would be told', async () => {
      const through = { url: 'http://alice:s3cret-Pa55@no-such-proxy.invalid:3128', noProxy: '' };
      const steps = await run(fixture.client, { proxy: through });
      assert.equal(steps[0].status, 'failed');
      assert.equal(steps[0].lookedUp, 'no-such-proxy.invalid');
      assert.equal(steps[0].error?.kind, 'proxy');
      assert.equal(steps[0].error?.code, 'PROXY_UNREACHABLE');
      assert.doesNotMatch(JSON.stringify(steps) + steps[0].error?.message, /s3cret/);
    });

    it('reports a proxy that refuses the tunnel, without showing its credentials', async () => {
      const proxy = await TestProxy.start({ credentials: { username: 'alice', password: 'not-this' } });
      try {
        const through = { url: proxy.url.replace('http://', 'http://alice:s3cret-Pa55@'), noProxy: '' };
        const steps = await run(fixture.client, { proxy: through });
        assert.deepEqual(outline(steps), ['dns passed', 'tls failed', 'token skipped', 'model skipped']);
        // As a request through the proxy would be told: the proxy's fault, and about credentials.
        assert.equal(steps[1].error?.kind, 'proxy');
        assert.equal(steps[1].error?.code, 'PROXY_AUTH_REJECTED');
        assert.equal(steps[1].error?.proxy?.status, 407);
        assert.equal(proxy.requests[0].authorization, `Basic ${Buffer.from('alice:s3cret-Pa55').toString('base64')}`);
        assert.doesNotMatch(JSON.stringify(steps) + steps[1].error?.message, /s3cret/);
      } finally {
        await proxy.stop();
      }
    });

    it('takes the proxy the requests take: an address without a scheme, and http.proxyAuthorization', async () => {
      const proxy = await TestProxy.start();
      try {
        const through = { url: proxy.url.replace('http://', ''), noProxy: '', authorization: 'Basic ZnJvbS1zZXR0aW5n' };
        const steps = await run(fixture.clientWith({ proxy: through }), { proxy: through });
        assert.deepEqual(outline(steps), ['dns passed', 'tls passed', 'token passed', 'model passed']);
        assert.equal(steps[1].proxy, proxy.url);
        assert.ok(proxy.tunnels.length >= 2);
        assert.ok(
          proxy.requests.every((request) => request.authorization === through.authorization),
          "every tunnel, the check's too, sent the setting",
        );
      } finally {
        await proxy.stop();
      }
    });

    it('stops at the first step when the proxy address is not a proxy URL, without showing its credentials', async () => {
      const steps = await run(fixture.client, { proxy: { url: 'ftp://bob:hunter2@proxy.corp:21', noProxy: '' } });
      assert.deepEqual(outline(steps), ['dns failed', 'tls skipped', 'token skipped', 'model skipped']);
      assert.equal(steps[0].error?.kind, 'proxy');
      assert.equal(steps[0].error?.code, 'PROXY_INVALID');
      assert.doesNotMatch(JSON.stringify(steps) + steps[0].error?.message, /hunter2/);
    });

    it('connects directly to a host the proxy settings exclude', async () => {
      const proxy = await TestProxy.start();
      try {
        const steps = await run(fixture.client, { proxy: { url: proxy.url, noProxy: new URL(fixture.emulator.origin).hostname } });
        assert.deepEqual(outline(steps), ['dns passed', 'tls passed', 'token passed', 'model passed']);
        assert.equal(steps[1].proxy, undefined);
        assert.equal(proxy.tunnels.length, 0);
      } finally {
        await proxy.stop();
      }
    });
  });
});
