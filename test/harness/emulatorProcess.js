// The service emulator for the harness (integration tests and `npm start`), run in this process
// from its bundle (out/test/emulator/index.js, built by `node esbuild.js --tests`), with the
// settings that point the extension at it.
'use strict';

const { execFileSync } = require('node:child_process');
const path = require('node:path');
const { paths } = require('./install');

async function startEmulator(options = {}) {
  execFileSync(process.execPath, ['esbuild.js', '--tests'], { cwd: paths.root, stdio: 'inherit' });
  const { Emulator } = require(path.join(paths.root, 'out', 'test', 'emulator', 'index.js'));
  const emulator = await Emulator.start(options);
  return emulator;
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
      case 'info':
        return { authUrl: emulator.authUrl, baseUrl: emulator.baseUrl, caPath: emulator.caPath, key: emulator.authorizationKey };
      default:
        throw new Error(`unknown emulator method ${method}`);
    }
  };
}

module.exports = { startEmulator, emulatorSettings, emulatorHandler };
