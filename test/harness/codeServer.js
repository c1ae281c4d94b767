// Starts and stops a real VS Code (code-server) and the headless Chromium that opens its workbench.
// Used by runIntegration.js (tests) and start.js (`npm start`). The tools come from install.js.
// Every process started here is stopped by its own PID (its whole process group), and also on the
// runner's exit, so a failing test never leaves a code-server or a browser behind.
'use strict';

const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const path = require('node:path');
const { paths, codeServerEnv } = require('./install');

const CHROMIUM_ARGS = [
  '--no-sandbox', // we run as root
  '--disable-gpu',
  // Without these Chromium keeps calling Google's hosts, which a closed network (as in CI) refuses.
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

/** Process groups still to kill if the runner exits without stopping them (a crash, process.exit). */
const liveGroups = new Set();
process.on('exit', () => {
  for (const pid of liveGroups) killGroup(pid, 'SIGKILL');
});

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // already gone
  }
}

function groupAlive(pid) {
  return killGroup(pid, 0);
}

/** SIGTERM to the whole group (code-server forks the extension host and more), SIGKILL if it lingers. */
async function stopProcessGroup(pid, graceMs = 5000) {
  if (!pid) return;
  killGroup(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (groupAlive(pid) && Date.now() < deadline) await sleep(100);
  killGroup(pid, 'SIGKILL');
  liveGroups.delete(pid);
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** code-server's own config file: without --config it would write one under ~/.config. */
function commonArgs({ userDataDir, extensionsDir }) {
  return [paths.codeServerEntry, '--config', path.join(userDataDir, 'code-server.yaml'), '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];
}

/** Installs a .vsix (or a Marketplace id, where the Marketplace can be reached) into extensionsDir. */
function installExtension({ vsix, userDataDir, extensionsDir }) {
  fs.mkdirSync(userDataDir, { recursive: true });
  const args = [...commonArgs({ userDataDir, extensionsDir }), '--install-extension', vsix, '--force'];
  const result = spawnSync(paths.node24, args, { encoding: 'utf8', timeout: 120_000, env: codeServerEnv(userDataDir) });
  if (result.status !== 0) {
    throw new Error(`installing ${vsix} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  }
}

/** Resolves once `url` answers HTTP at all (any status), or rejects after timeoutMs. */
async function waitForHttp(url, timeoutMs = 60_000, isAlive = () => true) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise((resolve) => {
      const request = http.get(url, (response) => {
        response.resume();
        resolve(true);
      });
      request.on('error', () => resolve(false));
      request.setTimeout(2000, () => request.destroy());
    });
    if (ok) return;
    if (!isAlive()) throw new Error(`the server for ${url} exited before answering`);
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await sleep(250);
  }
}

/**
 * Starts code-server on a free loopback port (or `port`) and waits until it answers.
 * `settings`, when given, becomes <userDataDir>/User/settings.json; `env` is added to its environment, which
 * the extension host (and so the extensions and the suite) inherits.
 * `tmpDir`, when given, receives the sockets VS Code creates in the temporary folder (which it
 * leaves behind when killed); keep its path short, a Unix socket's path has at most 107 bytes.
 * `workspaceTrust: true` keeps VS Code's Workspace Trust on (off by default, so folders open trusted).
 * `locale` is the display language (English by default); another needs its language pack installed.
 * Returns { url, port, pid, logFile, stop() }.
 */
async function startCodeServer({ userDataDir, extensionsDir, workspace, settings, env = {}, port, logFile, tmpDir, workspaceTrust = false, locale }) {
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  if (tmpDir) fs.mkdirSync(tmpDir, { recursive: true });
  if (settings) fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
  const chosenPort = port ?? (await freePort());
  const log = logFile ?? path.join(userDataDir, 'code-server.log');
  const out = fs.openSync(log, 'a');
  const args = [
    ...commonArgs({ userDataDir, extensionsDir }),
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${chosenPort}`,
    '--disable-telemetry',
    '--disable-update-check',
    ...(workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    '--ignore-last-opened',
    ...(locale ? ['--locale', locale] : []),
    ...(workspace ? [workspace] : []),
  ];
  const child = spawn(paths.node24, args, {
    detached: true, // its own process group, so stop() reaches the extension host too
    stdio: ['ignore', out, out],
    env: { ...codeServerEnv(userDataDir), ...(tmpDir ? { TMPDIR: tmpDir } : {}), ...env },
  });
  fs.closeSync(out);
  liveGroups.add(child.pid);
  let exited = false;
  child.on('exit', () => (exited = true));
  const url = `http://127.0.0.1:${chosenPort}/`;
  const server = { url, port: chosenPort, pid: child.pid, logFile: log, stop: () => stopProcessGroup(child.pid) };
  try {
    await waitForHttp(url, 60_000, () => !exited);
  } catch (error) {
    await server.stop();
    throw new Error(`${error.message}\n--- ${log} ---\n${tail(log)}`);
  }
  return server;
}

/** The workbench URL that opens `workspace`: a folder, or a `.code-workspace` file. */
function workbenchUrl(server, workspace) {
  if (!workspace) return server.url;
  return `${server.url}?${workspace.endsWith('.code-workspace') ? 'workspace' : 'folder'}=${encodeURIComponent(workspace)}`;
}

/**
 * Launches Debian's Chromium headless through playwright-core (which cannot download a browser of
 * its own here). A browser server gives the PID to stop it by; the returned `browser` is connected
 * to it. Returns { browser, pid, stop() }.
 */
async function launchBrowser() {
  const { chromium } = require('playwright-core');
  const server = await chromium.launchServer({
    executablePath: paths.chromium,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const pid = server.process().pid;
  liveGroups.add(pid);
  const browser = await chromium.connect(server.wsEndpoint());
  const stop = async () => {
    // A browser that hangs must not hang the run: close politely, bounded, then by PID.
    await Promise.race([server.close().catch(() => {}), sleep(5000)]);
    killGroup(pid, 'SIGKILL');
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
    liveGroups.delete(pid);
  };
  return { browser, pid, stop };
}

/**
 * Opens the workbench in a new page and waits until its main UI is there. `beforeNavigation(page)`
 * may install init scripts and bindings, which only apply to documents loaded after it.
 */
async function openWorkbench(browser, url, { timeoutMs = 60_000, beforeNavigation } = {}) {
  // The workbench's clipboard is the browser's: without these permissions copy and paste would hang.
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
  if (beforeNavigation) await beforeNavigation(page);
  await page.goto(url, { timeout: timeoutMs });
  await page.waitForSelector('.monaco-workbench', { timeout: timeoutMs });
  return page;
}

/** The extension host's log (where activation errors show) and the product's own logs. */
function exthostLogs(userDataDir) {
  const logs = path.join(userDataDir, 'logs');
  if (!fs.existsSync(logs)) return [];
  return fs
    .readdirSync(logs, { recursive: true, encoding: 'utf8' })
    .filter((name) => /exthost[^/]*\/(remoteexthost\.log|gigachat-vscode\.[^/]+\/[^/]+\.log)$/.test(name))
    .map((name) => path.join(logs, name));
}

function tail(file, lines = 80) {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

module.exports = {
  installExtension,
  startCodeServer,
  workbenchUrl,
  launchBrowser,
  openWorkbench,
  stopProcessGroup,
  waitForHttp,
  exthostLogs,
  tail,
};
