// Runs the same integration suite in desktop VS Code through @vscode/test-electron, for
// contributors whose machines can download VS Code from Microsoft (where that server cannot be
// reached, as in CI, `npm run test:integration` runs the suite in code-server). On a Linux without a display, run it
// under `xvfb-run -a`.
//   node test/harness/runElectron.js [--grep <pattern>]      VSCODE_VERSION=1.104.0 for the oldest supported
// The product is loaded from source as the development extension (built first), and
// out/test/integration/runSuite.js is the extensionTestsPath: the mocha code the companion runs too.
'use strict';

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { runTests } = require('@vscode/test-electron');
const { buildSuite } = require('./build');
const { SETTINGS } = require('./profile');
const { report, reportBrokenRun, passed } = require('./report');

const root = path.resolve(__dirname, '..', '..');

function option(name) {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}

async function main() {
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  const { runner } = await buildSuite();
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gigachat-it-electron-'));
  const userDataDir = path.join(runDir, 'user-data');
  const workspace = path.join(runDir, 'workspace');
  const resultsFile = path.join(runDir, 'results.json');
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.mkdirSync(workspace);
  fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify(SETTINGS, null, 2));
  fs.writeFileSync(path.join(workspace, 'README.md'), '# Integration test workspace\n');

  let results;
  try {
    await runTests({
      version: process.env.VSCODE_VERSION || 'stable',
      extensionDevelopmentPath: root,
      extensionTestsPath: runner,
      extensionTestsEnv: { GIGACHAT_IT_RESULTS: resultsFile, GIGACHAT_IT_GREP: option('--grep') ?? '' },
      launchArgs: [
        workspace,
        '--user-data-dir',
        userDataDir,
        '--extensions-dir',
        path.join(runDir, 'extensions'),
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
      ],
    });
  } catch (error) {
    console.error(`[integration] ${error.message || error}`); // runTests rejects when run() rejected
  }
  if (fs.existsSync(resultsFile)) results = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
  if (results) report(results);
  else reportBrokenRun();
  fs.rmSync(runDir, { recursive: true, force: true });
  process.exitCode = passed(results) ? 0 : 1;
}

main().catch((error) => {
  console.error(error);
  reportBrokenRun();
  process.exitCode = 1;
});
