import * as assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PinnedDownloadError, PinnedRootFile, downloadPinnedCertificate, type CertificatePin, type DownloadFailure } from '../../../../src/core';
import { CertificateDownloadHost } from '../../../emulator';
import { hello, rejectsWith, useEmulator } from '../../support/fixture';

/** The failure a download ended with (it must end with one). */
async function failureOf(promise: Promise<unknown>): Promise<DownloadFailure> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PinnedDownloadError) return error.failure;
    throw error;
  }
  throw new Error('the download succeeded');
}

describe('downloading and trusting a pinned root certificate', () => {
  // The emulator's CA plays the Russian Trusted Root CA: the client does not trust it at first.
  const fixture = useEmulator();
  let host: CertificateDownloadHost;
  let pinFor: (...paths: string[]) => CertificatePin;
  let folder: string;

  before(async () => {
    host = await CertificateDownloadHost.start(fixture.emulator.caPem);
    const sha256 = new X509Certificate(fixture.emulator.caPem).fingerprint256;
    pinFor = (...paths) => ({ subject: 'CN=GigaChat Emulator Test Root CA', sha256, downloadUrls: paths.map((p) => host.url(p)) });
  });
  beforeEach(() => (folder = fs.mkdtempSync(path.join(os.tmpdir(), 'gigachat-pinned-'))));
  afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));
  after(() => host?.stop());

  /** What a user's machine trusts before: the public web (the download host), not the service's root. */
  const options = () => ({ ca: [host.caPem], timeoutMs: 5_000 });

  it('downloads the certificate in DER or PEM form, or behind a redirect, when it matches the pin', async () => {
    for (const file of ['/root.cer', '/root.pem', '/moved.cer']) {
      const { certificate, url } = await downloadPinnedCertificate(pinFor(file), options());
      assert.equal(certificate.subject, 'CN=GigaChat Emulator Test Root CA', file);
      assert.equal(url, host.url(file));
    }
  });

  it('makes a client that failed on the unknown root succeed once the download is trusted', async () => {
    const untrusting = fixture.clientWith({ ca: [host.caPem] });
    const refused = await rejectsWith(untrusting.chat(hello), 'tls');
    assert.match(refused.message, /Russian Trusted Root CA/);

    const file = new PinnedRootFile(path.join(folder, 'trusted-root-ca.pem'), pinFor('/root.cer'));
    await file.downloadAndStore(options());
    const stored = await file.load();
    assert.ok(stored, 'the certificate was stored and still matches the pin');

    const trusting = fixture.clientWith({ ca: [host.caPem, stored.pem] });
    const reply = await trusting.chat(hello);
    assert.match(reply.choices[0].message.content, /retry/);
  });

  it('refuses a certificate that does not match the pin, even with the right name, and stores nothing', async () => {
    const file = new PinnedRootFile(path.join(folder, 'trusted-root-ca.pem'), pinFor('/impostor.cer'));
    const failure = await failureOf(file.downloadAndStore(options()));
    assert.equal(failure.kind, 'mismatch');
    if (failure.kind !== 'mismatch') return;
    assert.equal(failure.subject, 'CN=GigaChat Emulator Test Root CA');
    assert.equal(failure.expected, new X509Certificate(fixture.emulator.caPem).fingerprint256);
    assert.notEqual(failure.actual, failure.expected);
    assert.equal(fs.existsSync(file.path), false, 'nothing was stored');
    assert.equal(await file.load(), undefined);
  });

  it('ignores a stored file that no longer matches the pin', async () => {
    const file = new PinnedRootFile(path.join(folder, 'trusted-root-ca.pem'), pinFor('/root.cer'));
    await file.downloadAndStore(options());
    fs.writeFileSync(file.path, fs.readFileSync(path.join(path.dirname(fixture.emulator.caPath), 'server.pem')));
    assert.equal(await file.load(), undefined);
  });

  it('tells a refusal, a page that is not a certificate and an unreachable host apart', async () => {
    const refused = await failureOf(downloadPinnedCertificate(pinFor('/nothing-here.cer'), options()));
    assert.deepEqual(refused, { kind: 'refused', url: host.url('/nothing-here.cer'), status: 403 });

    for (const page of ['/portal.html', '/huge.cer']) {
      assert.equal((await failureOf(downloadPinnedCertificate(pinFor(page), options()))).kind, 'notCertificate', page);
    }

    const closed = { ...pinFor(), downloadUrls: ['https://127.0.0.1:9/russian_trusted_root_ca.cer'] };
    const unreachable = await failureOf(downloadPinnedCertificate(closed, options()));
    assert.equal(unreachable.kind === 'unreachable' && unreachable.cause.kind, 'network');

    // A download host whose own certificate is not trusted (a proxy that inspects TLS) is not
    // reached: verification stays on for the download too.
    const inspected = await failureOf(downloadPinnedCertificate(pinFor('/root.cer'), { timeoutMs: 5_000 }));
    assert.equal(inspected.kind === 'unreachable' && inspected.cause.kind, 'tls');
  });

  it('tries the addresses in order, and reports a mismatch before any other failure', async () => {
    const { url } = await downloadPinnedCertificate(pinFor('/nothing-here.cer', '/impostor.cer', '/root.cer'), options());
    assert.equal(url, host.url('/root.cer'));
    assert.equal((await failureOf(downloadPinnedCertificate(pinFor('/impostor.cer', '/nothing-here.cer'), options()))).kind, 'mismatch');
  });
});
