import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { EXTENSION_ID } from '../drivers';

/**
 * Waits until the extension host has been idle for a while: just after the window opens, other
 * extensions (git, TypeScript…) are still starting on the same thread, and their work would be
 * counted in our figure. Users open the chat after startup, too. Gives up after 30 s.
 */
async function hostIdle(): Promise<void> {
  const deadline = performance.now() + 30_000;
  for (let quiet = 0; quiet < 50 && performance.now() < deadline;) {
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 10));
    quiet = performance.now() - started < 15 ? quiet + 1 : 0;
  }
}

/**
 * Not a test: the activation figure for `npm run bench`, measured in the real extension host. It
 * runs only when the benchmark asks for it (GIGACHAT_IT_BENCH_OUT names the file for the figures),
 * alone, so nothing has activated the extension before.
 */
describe('benchmark', function () {
  before(function () {
    if (!process.env.GIGACHAT_IT_BENCH_OUT) this.skip();
  });

  it('measures activation', async function () {
    this.timeout(60_000);
    await hostIdle();
    const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
    const wasActive = extension.isActive;
    const started = performance.now();
    await extension.activate();
    const activationMs = performance.now() - started;
    fs.writeFileSync(process.env.GIGACHAT_IT_BENCH_OUT!, JSON.stringify({ activationMs, wasActive }));
  });
});
