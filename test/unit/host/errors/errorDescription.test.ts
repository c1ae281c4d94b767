import * as assert from 'node:assert/strict';
import { ATTACHMENTS_REFUSED, CONNECTION_LOST, NOT_TLS_CODE, ServiceError, STREAM_CUT, TOKEN_EXPIRED, type ServiceErrorKind } from '../../../../src/core';
import { SCOPE_MISMATCH } from '../../../../src/core/service/keyScopes';
import type { ServiceErrorDetails } from '../../../../src/core/serviceError';
import { describeError, describeErrorsWith } from '../../../../src/host/errors/errorDescription';
import { Log } from '../../../../src/host/log';
import { VsCodeSettings } from '../../../../src/host/settings/vscodeSettings';
import type { ErrorAction } from '../../../../src/shared/protocol';
import { standIn } from '../../support/vscodeStandIn';

/** What the service or the transport said, with what must never reach the user's text: a credential and the request id. */
const TECHNICAL = 'upstream said: Authorization: Bearer c2VjcmV0LWtleS0xMjM0NTY3ODkw';
const REQUEST_ID = 'b1946ac9-2d4f-4a1b-9f35-7e1c3f0a2d55';

function failure(kind: ServiceErrorKind, details: ServiceErrorDetails = {}): ServiceError {
  return new ServiceError(kind, TECHNICAL, { requestId: REQUEST_ID, ...details });
}

/** Each way a request fails, and the buttons its message offers. */
const CASES: { title: string; error: ServiceError; actions: ErrorAction[]; says: RegExp }[] = [
  { title: 'no key', error: failure('auth', { code: 'NO_KEY' }), actions: ['setKey'], says: /No GigaChat authorization key is set/ },
  { title: 'a fresh token called expired', error: failure('auth', { code: TOKEN_EXPIRED }), actions: ['retry', 'openLogs'], says: /try again in a moment/ },
  {
    title: 'a key for another scope',
    error: failure('auth', { code: SCOPE_MISMATCH }),
    actions: ['setKey', 'scopeSettings'],
    says: /another scope than GIGACHAT_API_PERS/,
  },
  {
    title: 'a key refused',
    error: failure('auth', { status: 401 }),
    actions: ['setKey', 'scopeSettings', 'openLogs'],
    says: /did not accept the authorization key/,
  },
  { title: 'no tokens left', error: failure('payment', { status: 402 }), actions: ['openAccount'], says: /run out of tokens/ },
  { title: 'access denied', error: failure('forbidden', { status: 403 }), actions: ['scopeSettings', 'modelSettings', 'openLogs'], says: /denied access/ },
  { title: 'an unknown model', error: failure('notFound', { status: 404 }), actions: ['modelSettings', 'openLogs'], says: /does not know the requested model/ },
  { title: 'a request too large', error: failure('tooLarge', { status: 413 }), actions: ['openLogs'], says: /too large/ },
  { title: 'an invalid request', error: failure('invalidRequest', { status: 422 }), actions: ['openLogs', 'retry'], says: /rejected the request as invalid/ },
  { title: 'a long wait asked', error: failure('rateLimit', { status: 429, retryAfterMs: 45_000 }), actions: ['retry'], says: /wait 45 seconds/ },
  { title: 'the streams busy', error: failure('rateLimit', { status: 429 }), actions: ['retry', 'openLogs'], says: /the account's only stream/ },
  { title: "the service's own fault", error: failure('server', { status: 503 }), actions: ['retry', 'openLogs'], says: /problem on its side/ },
  {
    title: 'a reply cut off',
    error: failure('network', { code: CONNECTION_LOST }),
    actions: ['retry', 'checkConnection', 'proxySettings', 'openLogs'],
    says: /broke while the reply was arriving/,
  },
  {
    title: 'plain http where TLS was expected',
    error: failure('network', { code: NOT_TLS_CODE }),
    actions: ['addressSettings', 'proxySettings', 'checkConnection', 'openLogs'],
    says: /did not answer with a secure connection/,
  },
  {
    title: 'no connection',
    error: failure('network', { code: 'ECONNREFUSED' }),
    actions: ['retry', 'checkConnection', 'proxySettings', 'openLogs'],
    says: /Could not connect/,
  },
  {
    title: 'a proxy that refused the credentials',
    error: failure('proxy', { code: 'PROXY_AUTH_REJECTED', proxy: { address: 'http://proxy.example:3128', source: 'http.proxy', status: 407 } }),
    actions: ['proxySettings', 'retry', 'checkConnection', 'openLogs'],
    says: /The proxy http:\/\/proxy\.example:3128 refused the credentials set in http\.proxy/,
  },
  {
    title: 'an untrusted root',
    error: failure('tls', { code: 'SELF_SIGNED_CERT_IN_CHAIN' }),
    actions: ['trustRootCertificate', 'chooseCertificateFile', 'certificateSettings', 'certificateHelp'],
    says: /Russian Trusted Root CA/,
  },
  {
    title: 'an expired certificate',
    error: failure('tls', { code: 'CERT_HAS_EXPIRED' }),
    actions: ['addressSettings', 'checkConnection', 'certificateHelp', 'openLogs'],
    says: /\(CERT_HAS_EXPIRED\)/,
  },
  { title: 'no answer in time', error: failure('timeout'), actions: ['retry', 'checkConnection', 'openLogs'], says: /did not answer in time/ },
  {
    title: 'a stream cut short',
    error: failure('protocol', { code: STREAM_CUT }),
    actions: ['retry', 'checkConnection', 'openLogs'],
    says: /stopped before it was complete/,
  },
  {
    title: 'the extension failing by itself',
    error: failure('internal'),
    actions: ['retry', 'openLogs'],
    says: /inside the GigaChat extension, not at GigaChat/,
  },
  { title: 'a stop', error: failure('cancelled'), actions: [], says: /^Stopped\.$/ },
  {
    title: 'pictures refused by the model',
    error: failure('invalidRequest', { status: 422, code: ATTACHMENTS_REFUSED }),
    actions: ['useVisionModel', 'openLogs'],
    says: /The model GigaChat cannot see pictures/,
  },
  {
    title: 'pictures the service no longer has',
    error: failure('notFound', { status: 404, code: ATTACHMENTS_REFUSED }),
    actions: ['retry', 'openLogs'],
    says: /no longer has the pictures/,
  },
];

/** What the user reads when something fails: what happened, with the buttons that fix it; the detail in the log. */
describe('describeError', () => {
  let settings: VsCodeSettings;
  let log: Log;
  beforeEach(() => {
    standIn.reset();
    settings = new VsCodeSettings();
    describeErrorsWith(settings);
    log = new Log();
  });
  afterEach(() => {
    log.dispose();
    settings.dispose();
  });

  const logLines = () => standIn.logChannels.flatMap((channel) => channel.lines.map((line) => line.message));

  it('covers every kind of failure', () => {
    const kinds: Record<ServiceErrorKind, true> = {
      auth: true,
      payment: true,
      forbidden: true,
      notFound: true,
      tooLarge: true,
      invalidRequest: true,
      rateLimit: true,
      server: true,
      network: true,
      proxy: true,
      tls: true,
      timeout: true,
      protocol: true,
      internal: true,
      cancelled: true,
    };
    assert.deepEqual(new Set(CASES.map((each) => each.error.kind)), new Set(Object.keys(kinds)));
  });

  for (const { title, error, actions, says } of CASES) {
    it(`says what happened for ${title}, with its buttons, and keeps the detail for the log`, () => {
      const described = describeError(error, log);
      assert.match(described.message, says);
      assert.deepEqual(described.actions, actions);
      assert.equal(described.kind, error.kind);
      assert.ok(!described.message.includes('c2VjcmV0LWtleS0xMjM0NTY3ODkw'), described.message);
      assert.ok(!described.message.includes(TECHNICAL), 'the technical message stays in the log');
      assert.ok(!described.message.includes(REQUEST_ID), 'the request id stays behind Details');
      assert.equal(described.requestId, REQUEST_ID);
      const [line] = logLines();
      assert.ok(line.includes(REQUEST_ID), line);
      assert.ok(!line.includes('c2VjcmV0LWtleS0xMjM0NTY3ODkw'), `the log masks the credential: ${line}`);
    });
  }

  it('names the scope and the model the settings hold at the time of the failure', () => {
    standIn.settings.set('gigachat.scope', 'GIGACHAT_API_B2B');
    standIn.settings.set('gigachat.model', 'GigaChat-2-Lite');
    assert.match(describeError(failure('auth', { code: SCOPE_MISMATCH }), log).message, /another scope than GIGACHAT_API_B2B/);
    assert.match(describeError(failure('invalidRequest', { status: 422, code: ATTACHMENTS_REFUSED }), log).message, /The model GigaChat-2-Lite cannot/);
  });

  it('tells a business account that other requests hold all its streams, not its only one', () => {
    standIn.settings.set('gigachat.scope', 'GIGACHAT_API_CORP');
    assert.match(describeError(failure('rateLimit', { status: 429 }), log).message, /hold all the account's streams/);
  });

  it('gives the time a Retry becomes useful when the service asked to wait', () => {
    const before = Date.now();
    const { retryAt } = describeError(failure('rateLimit', { status: 429, retryAfterMs: 45_000 }), log);
    assert.ok(retryAt !== undefined && retryAt >= before + 45_000 && retryAt <= Date.now() + 45_000, String(retryAt));
  });

  it("describes something thrown that is not the service's error as the extension's own failure", () => {
    const described = describeError(new TypeError("Cannot read properties of undefined (reading 'id')"), log);
    assert.equal(described.kind, 'internal');
    assert.deepEqual(described.actions, ['retry', 'openLogs']);
    assert.doesNotMatch(described.message, /Cannot read properties/);
    assert.match(logLines()[0], /TypeError: Cannot read properties of undefined/);
  });
});
