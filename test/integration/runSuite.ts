// Runs the integration suite (suite/**/*.test.ts, bundled next to this file by
// test/harness/build.js) with mocha, inside a VS Code extension host. Two callers share it:
//   - the companion extension (test/integration/companion), under code-server: runSuite(), and the
//     companion hands the results to the outer runner;
//   - @vscode/test-electron (test/harness/runElectron.js): this module is its extensionTestsPath;
//     run() writes the same results file and rejects on failure, as that API expects.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';

export interface TestResult {
  fullTitle: string;
  state: 'passed' | 'failed' | 'pending';
  durationMs?: number;
  error?: { message: string; stack?: string };
}

export interface SuiteResults {
  vscodeVersion: string;
  appName: string;
  passed: number;
  failed: number;
  pending: number;
  durationMs: number;
  tests: TestResult[];
  /** The first attempts that failed and were run again, with their errors: a flaky test shows even when its retry passes. */
  retried: { fullTitle: string; message: string }[];
}

/**
 * Which test files this window runs, as the outer runner says (GIGACHAT_IT_FILES): `only` those whose
 * names start with one of its prefixes, or all `except` those; all without either.
 */
interface FileSelection {
  only?: string[];
  except?: string[];
}

/** The bundled test files in the suite/ folder beside this bundle that this window runs, in order. */
function testFiles(selection: FileSelection): string[] {
  const dir = path.join(__dirname, 'suite');
  const named = (name: string, prefixes: string[]) => prefixes.some((prefix) => path.basename(name).startsWith(prefix));
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.js'))
    .filter((name) => (selection.only ? named(name, selection.only) : !named(name, selection.except ?? [])))
    .sort()
    .map((name) => path.join(dir, name));
}

/**
 * A test that leaves an unsaved untitled editor behind makes the next "close all editors" ask
 * whether to save it, and that modal question stops every later test (the window waits for an
 * answer nobody gives). Each test's leftovers are reverted and closed after it, and named in the log.
 */
async function closeUnsavedScratchEditors(this: Mocha.Context): Promise<void> {
  for (const document of vscode.workspace.textDocuments.filter((candidate) => candidate.isUntitled && candidate.isDirty)) {
    console.warn(`[integration] "${this.currentTest?.fullTitle()}" left ${document.uri.toString()} unsaved; reverted and closed`);
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
}

/** Hosts the suite talks to: the emulator, the test proxies and certificate host, all on loopback. */
const SUITE_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);

/**
 * Other extensions share the extension host. VS Code's built-in Copilot extension can activate
 * mid-run (a test breaks the settings file for a moment, and chat is on until it is restored) and
 * sends telemetry; on a machine without internet its failed name lookup surfaces as an uncaught
 * error, which mocha would pin on whichever of our tests is running. Such an error, a lookup of a
 * host the suite never uses, is logged and left alone; every other uncaught error still fails the test.
 */
function ignoreOtherExtensionsLookups(): void {
  const runner = Mocha.Runner.prototype as unknown as { _uncaught(this: Mocha.Runner, error: unknown): void; __lookupsIgnored?: boolean };
  if (runner.__lookupsIgnored) return;
  runner.__lookupsIgnored = true;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the runner as `this`
  const uncaught = runner._uncaught;
  runner._uncaught = function (error) {
    const lookup = error as { code?: string; hostname?: string } | undefined;
    if (lookup?.code === 'ENOTFOUND' && lookup.hostname !== undefined && !SUITE_HOSTS.has(lookup.hostname)) {
      console.warn(`[integration] ignored another extension's failed name lookup of ${lookup.hostname}`);
      return;
    }
    uncaught.call(this, error);
  };
}

export function runSuite(options: { color?: boolean } = {}): Promise<SuiteResults> {
  ignoreOtherExtensionsLookups();
  // One retry: a real workbench on 2 busy cores sometimes misses a beat (a watcher event, a quick pick
  // losing focus). A test that fails twice fails the run; a failed first attempt is logged.
  const mocha = new Mocha({
    ui: 'bdd',
    timeout: 30_000,
    retries: 1,
    color: options.color ?? true,
    reporter: 'spec',
    rootHooks: { afterEach: closeUnsavedScratchEditors },
  });
  // The grep of the outer command line (`npm run test:integration -- --grep chat`) arrives here.
  if (process.env.GIGACHAT_IT_GREP) mocha.grep(process.env.GIGACHAT_IT_GREP);
  for (const file of testFiles(JSON.parse(process.env.GIGACHAT_IT_FILES || '{}') as FileSelection)) mocha.addFile(file);

  const tests: TestResult[] = [];
  const retried: SuiteResults['retried'] = [];
  const started = Date.now();
  return new Promise((resolve, reject) => {
    try {
      const runner = mocha.run(() =>
        resolve({
          vscodeVersion: vscode.version,
          appName: vscode.env.appName,
          passed: tests.filter((t) => t.state === 'passed').length,
          failed: tests.filter((t) => t.state === 'failed').length,
          pending: tests.filter((t) => t.state === 'pending').length,
          durationMs: Date.now() - started,
          tests,
          retried,
        }),
      );
      runner.on('pass', (test) => tests.push({ fullTitle: test.fullTitle(), state: 'passed', durationMs: test.duration }));
      runner.on('pending', (test) => tests.push({ fullTitle: test.fullTitle(), state: 'pending' }));
      // A failed first attempt is reported, so a flaky test shows even when its retry passes.
      runner.on('retry', (test, error: Error) => retried.push({ fullTitle: test.fullTitle(), message: String(error?.message ?? error) }));
      // Also reached by a failing hook, whose title says which hook.
      runner.on('fail', (test, error: Error) =>
        tests.push({
          fullTitle: test.fullTitle(),
          state: 'failed',
          durationMs: test.duration,
          error: { message: String(error?.message ?? error), stack: error?.stack },
        }),
      );
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}

/** The extensionTestsPath contract of @vscode/test-electron. */
export async function run(): Promise<void> {
  const results = await runSuite();
  if (process.env.GIGACHAT_IT_RESULTS) fs.writeFileSync(process.env.GIGACHAT_IT_RESULTS, JSON.stringify(results));
  if (results.failed > 0) throw new Error(`${results.failed} integration test(s) failed`);
  if (results.passed === 0) throw new Error('no integration test ran');
}
