// `npm start [-- <folder>] [-- --port 8080] [-- --screenshot]`
// Runs the extension in a real VS Code for trying it by hand: packages it, installs the .vsix into
// a persistent profile and serves VS Code (code-server) on http://127.0.0.1:<port>/ until Ctrl+C.
// The profile keeps settings, secrets and chats across restarts: .vscode-test/start-emulator/, or
// start-service/ with the real service, so a key stored for the real service never goes to the
// emulator (a stored key wins over GIGACHAT_CREDENTIALS).
// --screenshot also opens the workbench in headless Chromium and saves test-results/start.png,
// for machines without a display. Environment variables reach the extension host unchanged.
// Without GIGACHAT_CREDENTIALS it starts the service emulator (with the service's streams per account:
// an individual's key one) and points the extension at it, with
// the emulator's demo key; with it, the extension talks to the real service with that key.
'use strict';

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { ensureInstalled, paths } = require('./install');
const cs = require('./codeServer');
const { SETTINGS, START_SETTINGS } = require('./profile');
const { startEmulator, emulatorSettings } = require('./emulatorProcess');
const { chatFrame } = require('./webviewDriver');

/** Settings merged into the profile on every start: the emulator's address and CA change each run. */
function updateSettings(userDataDir, changes) {
  const file = path.join(userDataDir, 'User', 'settings.json');
  const current = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : { ...SETTINGS };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ ...current, ...changes }, null, 2));
}

function option(name) {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}

/** The folder to open: the first argument that is neither a flag nor a flag's value. */
function folderArgument() {
  const args = process.argv.slice(2);
  const folder = args.find((arg, i) => !arg.startsWith('--') && args[i - 1] !== '--port');
  return path.resolve(folder ?? paths.root);
}

async function main() {
  ensureInstalled();
  const { version } = JSON.parse(fs.readFileSync(path.join(paths.root, 'package.json'), 'utf8'));
  execFileSync('npm', ['run', '--silent', 'package'], { cwd: paths.root, stdio: 'inherit' });

  const realService = Boolean(process.env.GIGACHAT_CREDENTIALS?.trim());
  const profile = path.join(paths.cache, realService ? 'start-service' : 'start-emulator');
  const userDataDir = path.join(profile, 'user-data');
  const extensionsDir = path.join(profile, 'extensions');
  const emulator = realService ? undefined : await startEmulator({ serviceQuota: true });
  const connection = emulator ? emulatorSettings(emulator) : {};
  // Keep what was changed in the workbench last time; only the connection settings (and VS Code's Chat on) are rewritten.
  updateSettings(userDataDir, { ...connection, ...START_SETTINGS });
  cs.installExtension({ vsix: path.join(paths.root, `gigachat-${version}.vsix`), userDataDir, extensionsDir });

  const workspace = folderArgument();
  const server = await cs.startCodeServer({
    userDataDir,
    extensionsDir,
    workspace,
    env: emulator ? { GIGACHAT_CREDENTIALS: emulator.authorizationKey } : {},
    port: Number(option('--port') ?? 8080),
    logFile: path.join(profile, 'code-server.log'),
  });
  const url = cs.workbenchUrl(server, workspace);
  const service = emulator ? `the service emulator at ${emulator.baseUrl} (demo key preset)` : 'the real GigaChat service (key from GIGACHAT_CREDENTIALS)';
  console.log(
    `\nVS Code with GigaChat ${version}, talking to ${service}:\n\n    ${url}\n\nThe chat is behind the GigaChat icon in the activity bar (or F1 → GigaChat: Open Chat);\nin VS Code's own Chat (Ctrl+Alt+I), GigaChat's models are in the model picker and @gigachat is an agent.\n(log: ${server.logFile}; Ctrl+C stops everything)`,
  );

  const stop = async () => {
    await server.stop();
    await emulator?.stop();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  if (process.argv.includes('--screenshot')) {
    const browser = await cs.launchBrowser();
    try {
      const page = await cs.openWorkbench(browser.browser, url);
      await page.waitForTimeout(8000); // the extension host starts after the workbench shows
      // The picture shows the chat, opened as a person would: F1, its command, Enter.
      await page.keyboard.press('F1');
      await page.keyboard.type('GigaChat: Open Chat', { delay: 5 });
      await page.waitForTimeout(500);
      await page.keyboard.press('Enter');
      // Until the chat has drawn: on a first start its page takes a while to load.
      const chat = await chatFrame(page, 30_000);
      await chat.locator('textarea').waitFor({ state: 'visible', timeout: 30_000 });
      await page.waitForTimeout(1000); // the models list and welcome arrive from the host just after
      const file = path.join(paths.root, 'test-results', 'start.png');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      await page.screenshot({ path: file });
      console.log(`screenshot: ${file}`);
      // And VS Code's own Chat, with @gigachat answering there.
      await page.keyboard.press('Control+Alt+KeyI');
      await page.locator('.interactive-input-part').first().waitFor({ state: 'visible', timeout: 30_000 });
      await page.keyboard.type('@gigachat What can you do in this workspace?', { delay: 5 });
      await page.keyboard.press('Enter');
      await page.locator('.interactive-item-container.interactive-response .chat-markdown-part').first().waitFor({ state: 'visible', timeout: 30_000 });
      await page.waitForTimeout(1500); // the answer streams in
      const vscodeChat = path.join(paths.root, 'test-results', 'start-vscode-chat.png');
      await page.screenshot({ path: vscodeChat });
      console.log(`screenshot: ${vscodeChat}`);
    } finally {
      await browser.stop();
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
