import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ensureKey, EXTENSION_ID, productWorkspaceStorage, until, workbench } from '../drivers';
import { callOuter } from '../outer';
import { realSources } from '../../bench/realSources';

const STATUS_ITEM = 'gigachat-vscode.gigachat.gigachat.searchIndex';
/** Real source files for the memory figure (test/bench/realSources.ts): some 18,000 chunks, a workspace like a user's. */
const MEMORY_FILES = 1_500;
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
 * The rows of the embedding cache's vectors file under `folder` (0 when there is none): the meta
 * file names it (`vectors.f32` before format 3), and saves after the first append rows to it, so
 * the meta file's own `count` is only the last compaction's. A fresh index has no dead rows.
 */
function cachedVectors(folder: string): number {
  for (const relative of fs.readdirSync(folder, { recursive: true, encoding: 'utf8' })) {
    const meta = path.join(folder, relative);
    if (path.basename(meta) !== 'meta.json') continue;
    const { dimensions, vectors = 'vectors.f32' } = JSON.parse(fs.readFileSync(meta, 'utf8')) as { dimensions: number; vectors?: string };
    const file = path.join(path.dirname(meta), vectors);
    if (fs.existsSync(file)) return Math.floor(fs.statSync(file).size / (4 * dimensions));
  }
  return 0;
}

/**
 * Not a test: figures for `npm run bench`, measured in the real extension host. It runs only when
 * the benchmark asks for it (GIGACHAT_IT_BENCH_OUT names the file for the figures), alone, so
 * nothing has activated the extension before.
 */
describe('benchmark', function () {
  const figures: Record<string, unknown> = {};

  before(function () {
    if (!process.env.GIGACHAT_IT_BENCH_OUT) this.skip();
  });

  after(() => {
    if (process.env.GIGACHAT_IT_BENCH_OUT) fs.writeFileSync(process.env.GIGACHAT_IT_BENCH_OUT, JSON.stringify(figures));
  });

  it('measures activation', async function () {
    this.timeout(60_000);
    await hostIdle();
    const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
    const wasActive = extension.isActive;
    const started = performance.now();
    await extension.activate();
    figures.activationMs = performance.now() - started;
    figures.wasActive = wasActive;
  });

  /**
   * The workspace for the memory of one search after a reload, measured by the outer runner
   * (test/harness/searchAfterReload.js) once this suite has ended: some 16,000 chunks of real sources
   * indexed and their cache saved. The files stay for that search (the run's folder goes after it).
   */
  it('indexes a workspace of real sources for the search after a reload', async function () {
    this.timeout(20 * 60_000);
    const folder = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'memory-fixture').fsPath;
    // The repository's dependencies (the packaged extension ships none): GIGACHAT_IT_SOURCES, set by npm run bench.
    const nodeModules = process.env.GIGACHAT_IT_SOURCES ?? path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'node_modules');
    for (const source of realSources(nodeModules, MEMORY_FILES)) {
      const file = path.join(folder, source.relative);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.copyFileSync(source.absolute, file);
    }
    await ensureKey();
    // The question says how many files and chunks it would send: counting 1,500 files takes a while.
    const done = vscode.commands.executeCommand('gigachat.rebuildSearchIndex');
    await callOuter('workbench', { action: 'dialogText', timeoutMs: 5 * 60_000 });
    await workbench.dialogButton('Send and Index');
    await done;
    await until(async () => /\d+ files? indexed/.test(await workbench.statusBarText(STATUS_ITEM)), 'the workspace indexed', 15 * 60_000);
    const storage = await productWorkspaceStorage();
    await until(() => cachedVectors(storage) > MEMORY_FILES, 'the embedding cache saved', 60_000);
    figures.indexed = { chunks: cachedVectors(storage), query: 'send the request again after a redirect' };
  });
});
