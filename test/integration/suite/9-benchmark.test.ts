import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { EXTENSION_ID } from '../drivers';

/**
 * Not a test: the activation figure for `npm run bench`, measured in the real extension host. It
 * runs only when the benchmark asks for it (GIGACHAT_IT_BENCH_OUT names the file for the figures),
 * alone, so nothing has activated the extension before.
 */
describe('benchmark', function () {
  before(function () {
    if (!process.env.GIGACHAT_IT_BENCH_OUT) this.skip();
  });

  it('measures activation', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
    const wasActive = extension.isActive;
    const started = performance.now();
    await extension.activate();
    const activationMs = performance.now() - started;
    fs.writeFileSync(process.env.GIGACHAT_IT_BENCH_OUT!, JSON.stringify({ activationMs, wasActive }));
  });
});
