import * as assert from 'node:assert/strict';
import { ServiceError } from '../../../../src/core';
import { ProxyRoutes, withoutCredentials } from '../../../../src/core/network/proxyRoutes';

const API = 'https://gigachat.devices.sberbank.ru/api/v1/chat/completions';
const AUTH = 'https://ngw.devices.sberbank.ru:9443/api/v2/oauth';

describe('proxy routes', () => {
  it('without settings or variables, connects directly', () => {
    assert.equal(new ProxyRoutes({}, {}).for(API), undefined);
  });

  it('takes http.proxy first, then https_proxy, HTTPS_PROXY, http_proxy, HTTP_PROXY', () => {
    const env = { HTTP_PROXY: 'http://d:1', http_proxy: 'http://c:1', HTTPS_PROXY: 'http://b:1', https_proxy: 'http://a:1' };
    assert.deepEqual(new ProxyRoutes({ url: 'http://setting:1' }, env).for(API)?.source, 'http.proxy');
    const order = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'];
    for (const [i, name] of order.entries()) {
      const remaining = Object.fromEntries(Object.entries(env).filter(([key]) => order.indexOf(key) >= i));
      const proxy = new ProxyRoutes({}, remaining).for(API);
      assert.equal(proxy?.source, name);
      assert.equal(proxy?.address, `http://${'abcd'[i]}:1`);
    }
  });

  it('reads an address without a scheme as http, and keeps https and socks5 proxies', () => {
    assert.equal(new ProxyRoutes({ url: 'proxy.corp:3128' }).for(API)?.address, 'http://proxy.corp:3128');
    assert.equal(new ProxyRoutes({ url: 'https://proxy.corp:8443' }).for(API)?.address, 'https://proxy.corp:8443');
    assert.equal(new ProxyRoutes({ url: 'socks5://proxy.corp:1080' }).for(API)?.address, 'socks5://proxy.corp:1080');
  });

  it('turns URL credentials into Basic authorization and keeps them out of the address', () => {
    const proxy = new ProxyRoutes({ url: 'http://CORP%5Cuser:p%40ss%3Aw@proxy.corp:3128' }).for(API)!;
    assert.equal(proxy.address, 'http://proxy.corp:3128');
    assert.equal(proxy.authorization, `Basic ${Buffer.from('CORP\\user:p@ss:w').toString('base64')}`);
    assert.equal(new ProxyRoutes({ url: 'http://token@proxy.corp:3128' }).for(API)!.authorization, `Basic ${Buffer.from('token:').toString('base64')}`);
    assert.equal(new ProxyRoutes({ url: 'http://u:p@proxy.corp:3128', authorization: 'Negotiate abc' }).for(API)!.authorization, 'Negotiate abc');
  });

  it('an unusable address fails only the requests that would use it, without its credentials', () => {
    for (const url of ['ftp://user:hunter22@proxy:21', 'http://user:hunter22@', 'http://[broken', 'http://user:x/hunter22@proxy:3128']) {
      const routes = new ProxyRoutes({ url, noProxy: 'ngw.devices.sberbank.ru' });
      assert.equal(routes.for(AUTH), undefined, 'a bypassed host still works');
      assert.throws(
        () => routes.for(API),
        (error: unknown) => error instanceof ServiceError && error.kind === 'proxy' && error.code === 'PROXY_INVALID' && !error.message.includes('hunter22'),
      );
    }
  });

  it('credentials with a bare % fail the requests that would use the proxy as a proxy setting error, without the password', () => {
    const routes = new ProxyRoutes({ url: 'http://corp-user:50%off-hunter22@proxy.corp:3128', noProxy: 'ngw.devices.sberbank.ru' });
    assert.equal(routes.for(AUTH), undefined, 'a bypassed host still works');
    assert.throws(
      () => routes.for(API),
      (error: unknown) =>
        error instanceof ServiceError &&
        error.kind === 'proxy' &&
        error.code === 'PROXY_CREDENTIALS_ENCODING' &&
        error.proxy?.source === 'http.proxy' &&
        error.proxy.address === 'http://proxy.corp:3128' &&
        !error.message.includes('hunter22'),
    );
    // A ready Proxy-Authorization (http.proxyAuthorization) is used instead: the URL's credentials are not read.
    assert.equal(new ProxyRoutes({ url: 'http://u:50%off@proxy.corp:3128', authorization: 'Negotiate abc' }).for(API)?.authorization, 'Negotiate abc');
  });

  it('noProxy: exact hosts, domain suffixes with or without a leading dot or *, ports, and *', () => {
    const bypassed = (noProxy: string, url = API) => new ProxyRoutes({ url: 'http://proxy:1', noProxy }).for(url) === undefined;
    assert.ok(bypassed('gigachat.devices.sberbank.ru'));
    assert.ok(bypassed('sberbank.ru'));
    assert.ok(bypassed('.sberbank.ru'));
    assert.ok(bypassed('*.sberbank.ru'));
    assert.ok(bypassed('example.com, SBERBANK.RU'));
    assert.ok(bypassed('example.com sberbank.ru'));
    assert.ok(bypassed('*'));
    assert.ok(bypassed('ngw.devices.sberbank.ru:9443', AUTH));
    assert.ok(!bypassed('ngw.devices.sberbank.ru:443', AUTH), 'another port');
    assert.ok(bypassed('gigachat.devices.sberbank.ru:443'), 'the default https port');
    assert.ok(!bypassed('bank.ru'), 'not a suffix at a dot');
    assert.ok(!bypassed('evil-sberbank.ru'));
    assert.ok(!bypassed(''));
  });

  it('noProxy: IPv6 addresses, bare or in brackets with a port', () => {
    const bypassed = (noProxy: string, url: string) => new ProxyRoutes({ url: 'http://proxy:1', noProxy }).for(url) === undefined;
    assert.ok(bypassed('::1', 'https://[::1]:8443/api'));
    assert.ok(bypassed('[::1]:8443', 'https://[::1]:8443/api'));
    assert.ok(!bypassed('[::1]:9000', 'https://[::1]:8443/api'));
    assert.ok(bypassed('2001:db8::5', 'https://[2001:db8::5]/api'));
  });

  it('NO_PROXY applies when http.noProxy is not set, and http.noProxy replaces it when it is', () => {
    const env = { HTTPS_PROXY: 'http://proxy:1', NO_PROXY: 'sberbank.ru' };
    assert.equal(new ProxyRoutes({}, env).for(API), undefined);
    assert.ok(new ProxyRoutes({ noProxy: 'example.com' }, env).for(API));
    assert.equal(new ProxyRoutes({}, { ...env, no_proxy: 'devices.sberbank.ru', NO_PROXY: 'example.com' }).for(API), undefined, 'lower case first');
  });

  it("with directLoopback, this machine's own addresses go direct whatever the proxy, others through it", () => {
    const env = { HTTPS_PROXY: 'http://proxy.corp:3128', HTTP_PROXY: 'http://proxy.corp:3128' };
    const routes = new ProxyRoutes({ noProxy: '' }, env, { directLoopback: true });
    const local = [
      'http://localhost:11434/api/generate',
      'https://LOCALHOST:8080/v1',
      'http://localhost./infill',
      'http://gpu.localhost:8000/',
      'http://127.0.0.1:8080/',
      'http://127.1.2.3/',
      'http://2130706433/',
      'http://[::1]:11434/',
      'http://[0:0:0:0:0:0:0:1]/',
      'http://[::ffff:127.0.0.1]:8080/',
    ];
    for (const url of local) assert.equal(routes.for(url), undefined, url);
    const remote = [
      'http://gpu-box:11434/',
      'http://10.0.0.5:11434/',
      'http://128.0.0.1/',
      'http://localhost.evil.com/',
      'http://[::2]/',
      'http://[::ffff:a00:1]/',
      API,
    ];
    for (const url of remote) assert.equal(routes.for(url)?.address, 'http://proxy.corp:3128', url);
    // The service's own client keeps loopback behind the proxy (it is never local; its tests put a proxy in front of a local emulator).
    assert.ok(new ProxyRoutes({ noProxy: '' }, env).for('http://localhost:11434/'));
  });

  it('strips credentials from an address shown in a message', () => {
    assert.equal(withoutCredentials('http://u:p@host:1'), 'http://host:1');
    assert.equal(withoutCredentials('u:p@host:1'), 'host:1');
    // In an address that does not parse, a password may hold anything: `/` and `@` too.
    assert.equal(withoutCredentials('http://bob:pa/ss@proxy:3128'), 'http://proxy:3128');
    assert.equal(withoutCredentials('http://bob:p@ss@proxy:3128'), 'http://proxy:3128');
  });
});
