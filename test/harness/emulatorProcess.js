// The service emulator for the harness (integration tests and `npm start`), run in this process
// from its bundle (out/test/emulator/index.js, built by `node esbuild.js --tests`), with the
// settings that point the extension at it.
'use strict';

const { execFileSync } = require('node:child_process');
const path = require('node:path');
const { paths } = require('./install');

/** Whether this process has built the emulator's bundle: once is enough for every emulator it starts. */
let built = false;

/**
 * Builds the emulator's bundle, once per process. The build is synchronous: a caller that starts
 * several emulators builds first, so no later start stalls the emulators already serving.
 */
function buildEmulator() {
  if (!built) execFileSync(process.execPath, ['esbuild.js', '--tests'], { cwd: paths.root, stdio: 'inherit' });
  built = true;
}

/** `serviceQuota`: each account gets the service's streams (an individual's key one), as in `npm start`. */
async function startEmulator({ serviceQuota = false, ...options } = {}) {
  buildEmulator();
  const { Emulator, SERVICE_STREAMS } = require(path.join(paths.root, 'out', 'test', 'emulator', 'index.js'));
  const emulator = await Emulator.start(serviceQuota ? { ...options, streamsPerScope: SERVICE_STREAMS } : options);
  return emulator;
}

/**
 * The stand-in for the official download address of the Russian Trusted Root CA, serving the
 * emulator's CA (see test/emulator/certificateDownloads.ts), and the environment that points the
 * extension's pin at it. The download host's own CA goes to NODE_EXTRA_CA_CERTS: it plays a
 * publicly trusted site, trusted by Node's defaults, while the emulator's CA is trusted only
 * through the settings, which tests can take away.
 */
async function startCertificateHost(emulator) {
  const { CertificateDownloadHost } = require(path.join(paths.root, 'out', 'test', 'emulator', 'index.js'));
  const { X509Certificate } = require('node:crypto');
  const host = await CertificateDownloadHost.start(emulator.caPem);
  const pin = {
    subject: 'CN=GigaChat Emulator Test Root CA',
    sha256: new X509Certificate(emulator.caPem).fingerprint256,
    downloadUrls: [host.url('/current.cer')],
  };
  const env = { GIGACHAT_TEST_ROOT_CA_PIN: JSON.stringify(pin), NODE_EXTRA_CA_CERTS: host.caPath };
  return { host, env };
}

/** What a test may do to the download host: switch what the download address answers, read requests. */
function certificateHostHandler(host) {
  return async ({ method, args = [] }) => {
    switch (method) {
      case 'serve':
        return host.serve(args[0]);
      case 'requests':
        return host.requests;
      default:
        throw new Error(`unknown certificate host method ${method}`);
    }
  };
}

/** User settings that send the extension to the emulator and trust its throwaway CA. */
function emulatorSettings(emulator) {
  return {
    'gigachat.authUrl': emulator.authUrl,
    'gigachat.baseUrl': emulator.baseUrl,
    'gigachat.caCertificates': [emulator.caPath],
  };
}

/**
 * What a test inside the extension host may do to the emulator (through callOuter('emulator', …)):
 * inject faults, read counts and recorded requests, expire tokens, change latency, kill it and
 * restart it on the same port.
 */
function emulatorHandler(emulator) {
  return async ({ method, args = [] }) => {
    switch (method) {
      case 'inject':
        return emulator.inject(args[0], args[1]);
      case 'clearFaults':
      case 'resetCounts':
      case 'expireAllTokens':
      case 'kill':
      case 'restart':
        return emulator[method]();
      case 'setOptions':
        return emulator.setOptions(args[0]);
      case 'count':
        return emulator.count(args[0]);
      case 'requests':
        return emulator.requests;
      case 'refusedForStreams':
        return emulator.refusedForStreams;
      case 'info':
        return { authUrl: emulator.authUrl, baseUrl: emulator.baseUrl, caPath: emulator.caPath, key: emulator.authorizationKey };
      default:
        throw new Error(`unknown emulator method ${method}`);
    }
  };
}

module.exports = { buildEmulator, startEmulator, emulatorSettings, emulatorHandler, startCertificateHost, certificateHostHandler };
