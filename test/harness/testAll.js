// `npm test`: every check, in the least wall time on a 2-CPU machine, each step as its own script runs it.
//   1. What the browser tests need (Chromium, Node 24, code-server: install.js) installs in the
//      background, mostly downloads, while the type check, the lint, the build and the unit tests run.
//   2. The chat view's tests in Chromium start as soon as those are done and Chromium is there, while
//      code-server may still be installing; the suite in a real VS Code starts once it is. They run
//      side by side: the second mostly waits on the workbench, the first mostly computes, so together
//      they take little longer than the longer of them.
// Output of a step that runs beside another is prefixed with its name. Fails when any step fails.
'use strict';

const { spawn } = require('node:child_process');
const readline = require('node:readline');
const { BROWSER_READY } = require('./install');

const env = { ...process.env };

/**
 * Runs `command` with npm's PATH; resolves its exit code. With a `name`, its output lines are
 * prefixed with it, and each is handed to `onLine` too.
 */
function run(command, name, onLine = () => {}) {
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, env, stdio: name ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    if (name) {
      for (const stream of [child.stdout, child.stderr]) {
        readline.createInterface({ input: stream }).on('line', (line) => {
          console.log(`[${name}] ${line}`);
          onLine(line);
        });
      }
    }
    child.on('close', (code) => resolve(code ?? 1));
  });
}

async function main() {
  const started = Date.now();
  let browserReady;
  const chromium = new Promise((resolve) => (browserReady = resolve));
  const installing = run('node test/harness/install.js', 'install', (line) => line.endsWith(BROWSER_READY) && browserReady(true));
  installing.then(() => browserReady(false)); // an install that failed before Chromium was there
  for (const step of ['npm run typecheck', 'npm run lint', 'node esbuild.js --tests']) {
    if ((await run(step)) !== 0) return fail(step);
  }
  // Built once: the steps below skip their own build (esbuild.js reads this).
  env.GIGACHAT_TESTS_BUILT = '1';
  if ((await run('npm run test:unit')) !== 0) return fail('unit tests');
  if (!(await chromium)) return fail('install');
  const webviewTests = run('npm run test:webview', 'webview');
  if ((await installing) !== 0) return fail('install');
  const [webview, integration] = await Promise.all([webviewTests, run('npm run test:integration', 'integration')]);
  if (webview !== 0) fail('webview tests');
  if (integration !== 0) fail('integration tests');
  if (webview !== 0 || integration !== 0) return;
  console.log(`npm test: all passed in ${((Date.now() - started) / 60_000).toFixed(1)} min`);
}

function fail(step) {
  console.error(`npm test: ${step} failed`);
  process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
