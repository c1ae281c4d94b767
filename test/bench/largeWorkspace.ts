/**
 * A large workspace: 50,000 generated files in a temp folder (the project's code, its tests and a
 * vendored library, in folders of various depths), listed and selected by the same code as a scan
 * (selectFiles over a folder on disk, with its ignore rules and symbolic-link checks). Prints the
 * time to list and select, the memory the selection holds, how long the event loop was held at
 * most meanwhile (what the status bar and the consent dialog would wait), and which files
 * `gigachat.search.maxFiles` (default 5,000) keeps. Prints; asserts nothing.
 *
 *   node out/test/bench/largeWorkspace.js [--files 50000] [--max-files 5000]
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { selectFiles } from '../../src/core';
import { fileKind, type FileKind } from '../../src/core/search/files/filePriority';
import { DiskFolder } from '../unit/support/diskFolder';
import { numberOption } from './options';

const fileCount = numberOption('files', 50_000);
const maxFiles = numberOption('max-files', 5000);

v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

/** The i-th generated path: 60% the project's code, 25% tests, 15% a vendored library; 1 to 5 folders deep. */
function pathOf(i: number): string {
  const depth = 1 + (i % 5);
  const folders = Array.from({ length: depth }, (_, d) => `d${(i >> (d + 2)) % 7}`);
  const bucket = i % 20;
  if (bucket < 12) return ['src', ...folders, `module${i}.ts`].join('/');
  if (bucket < 17) return ['test', ...folders, `module${i}.test.ts`].join('/');
  return ['vendor', 'lib', ...folders, `part${i}.js`].join('/');
}

function generate(root: string): void {
  for (let i = 0; i < fileCount; i++) {
    const file = path.join(root, pathOf(i));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `export const value${i} = ${i};\n`);
  }
  fs.writeFileSync(path.join(root, '.gitignore'), 'coverage/\n');
}

/** The longest the event loop waited for a 10 ms timer while `run` ran. */
async function heldAtMost<T>(run: () => Promise<T>): Promise<{ value: T; heldMs: number }> {
  let heldMs = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    heldMs = Math.max(heldMs, now - last - 10);
    last = now;
  }, 10);
  try {
    return { value: await run(), heldMs };
  } finally {
    clearInterval(timer);
  }
}

async function main(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gigachat-bench-large-'));
  try {
    const generating = performance.now();
    generate(root);
    console.log(`${fileCount.toLocaleString('en-US')} files generated in ${((performance.now() - generating) / 1000).toFixed(1)} s`);
    collect();
    const before = process.memoryUsage();
    const started = performance.now();
    const { value: selection, heldMs } = await heldAtMost(() => selectFiles([new DiskFolder(root)], { maxFileBytes: 1 << 20, maxFiles }));
    const ms = performance.now() - started;
    collect();
    const after = process.memoryUsage();
    const kept: Record<FileKind, number> = { source: 0, test: 0, vendored: 0 };
    const all: Record<FileKind, number> = { source: 0, test: 0, vendored: 0 };
    for (const file of selection.files) kept[fileKind(file.path)]++;
    for (let i = 0; i < fileCount; i++) all[fileKind(pathOf(i))]++;
    const depths = selection.files.map((file) => file.path.split('/').length);
    console.log(`list and select: ${ms.toFixed(0)} ms; the event loop held at most ${heldMs.toFixed(0)} ms at a time (target: well under 100 ms)`);
    console.log(
      `memory the selection holds: heap +${((after.heapUsed - before.heapUsed) / 2 ** 20).toFixed(1)} MiB (${Math.round((after.heapUsed - before.heapUsed) / fileCount)} B a file), rss +${((after.rss - before.rss) / 2 ** 20).toFixed(1)} MiB`,
    );
    console.log(
      `maxFiles ${maxFiles.toLocaleString('en-US')} keeps ${selection.files.length.toLocaleString('en-US')} (${selection.skipped.get('overLimit')?.toLocaleString('en-US') ?? 0} left out): ` +
        (['source', 'test', 'vendored'] as const)
          .map((kind) => `${kind} ${kept[kind].toLocaleString('en-US')} of ${all[kind].toLocaleString('en-US')}`)
          .join(', ') +
        `; ${Math.min(...depths)} to ${Math.max(...depths)} path parts deep`,
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
