import * as assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NotACertificateError, PinMismatchError, RUSSIAN_TRUSTED_ROOT_PIN, checkPin, formatFingerprint, readCertificates } from '../../../../src/core';
import { Emulator } from '../../../emulator';

describe('certificate pins', () => {
  let emulator: Emulator;
  let pin: { sha256: string };
  before(async () => {
    emulator = await Emulator.start();
    pin = { sha256: new X509Certificate(emulator.caPem).fingerprint256 };
  });
  after(() => emulator?.stop());

  it('accepts the pinned certificate in DER and in PEM form, and says what it is', () => {
    for (const input of [emulator.caDer, emulator.caPem, Buffer.from(emulator.caPem)]) {
      const certificate = checkPin(input, pin);
      assert.equal(certificate.subject, 'CN=GigaChat Emulator Test Root CA');
      assert.equal(certificate.sha256, pin.sha256);
      assert.equal(certificate.isCertificateAuthority, true);
      assert.equal(certificate.selfIssued, true);
      assert.ok(certificate.validTo > new Date());
      assert.match(certificate.pem, /^-----BEGIN CERTIFICATE-----/);
    }
  });

  it('accepts the pin written in any of the usual ways', () => {
    const bare = pin.sha256.replace(/:/g, '').toLowerCase();
    assert.equal(checkPin(emulator.caDer, { sha256: bare }).sha256, pin.sha256);
    assert.equal(formatFingerprint('d2 6d 2d'), 'D2:6D:2D');
  });

  it('refuses any other certificate, naming the expected and the actual fingerprint', async () => {
    const server = new X509Certificate(fs.readFileSync(path.join(path.dirname(emulator.caPath), 'server.pem')));
    assert.throws(
      () => checkPin(server.raw, pin),
      (error: unknown) =>
        error instanceof PinMismatchError &&
        error.expected === pin.sha256 &&
        error.actual === server.fingerprint256 &&
        error.subject === 'CN=localhost' &&
        error.message.includes(pin.sha256) &&
        error.message.includes(server.fingerprint256),
    );
  });

  it('refuses what is not exactly one certificate', () => {
    const notCertificate = (input: Uint8Array | string) => assert.throws(() => checkPin(input, pin), NotACertificateError);
    notCertificate('<html>Please sign in to the proxy</html>');
    notCertificate(Buffer.alloc(100, 0x30)); // looks like DER at first glance
    notCertificate('-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----');
    notCertificate(`${emulator.caPem}\n${emulator.caPem}`); // a bundle could smuggle in a second root
  });

  it('reads every certificate of a bundle for a person to check', () => {
    const server = fs.readFileSync(path.join(path.dirname(emulator.caPath), 'server.pem'), 'utf8');
    const certificates = readCertificates(`${server}\n${emulator.caPem}`);
    assert.deepEqual(
      certificates.map((c) => [c.subject, c.issuer, c.isCertificateAuthority]),
      [
        ['CN=localhost', 'CN=GigaChat Emulator Test Root CA', false],
        ['CN=GigaChat Emulator Test Root CA', 'CN=GigaChat Emulator Test Root CA', true],
      ],
    );
  });

  it("ships the official pin of the Russian Trusted Root CA, as the service's documentation gives it", () => {
    assert.equal(RUSSIAN_TRUSTED_ROOT_PIN.sha256, 'D2:6D:2D:02:31:B7:C3:9F:92:CC:73:85:12:BA:54:10:35:19:E4:40:5D:68:B5:BD:70:3E:97:88:CA:8E:CF:31');
    assert.equal(RUSSIAN_TRUSTED_ROOT_PIN.subject, 'CN=Russian Trusted Root CA, O=The Ministry of Digital Development and Communications, C=RU');
    assert.deepEqual(RUSSIAN_TRUSTED_ROOT_PIN.downloadUrls, ['https://gu-st.ru/content/Other/doc/russian_trusted_root_ca.cer']);
  });
});
