/**
 * Bytes the search index writes to disk when one file is edited, against that file's own rows and
 * against a rewrite of the whole cache (what every save after an edit cost before the cache wrote
 * only what changed). Prints; asserts nothing (test/unit/core/search/cache/cacheSafety.test.ts,
 * embeddingCache.test.ts, vectorRows.test.ts and indexSave.test.ts check correctness).
 *
 * A workspace of N chunks (generated TypeScript, 1,024 dimensions, random unit vectors: the bytes
 * written do not depend on the values) is indexed and saved through the product's own path (the
 * WorkspaceIndexer, its chunk boundaries and keyword index, saveSearchIndex), then files are edited
 * one at a time as the workspace index does after a save in the editor: the file is indexed again
 * (the chunks whose text changed get new vectors), and saved with the old rows pruned. Two kinds
 * of edit: one chunk of the file changed (a line typed), and the whole file rewritten. Bytes are the
 * process's `wchar` from /proc/self/io around each save (every byte handed to write(2): rows,
 * journal line, meta file, and whatever else the save writes).
 *
 * An edit appends its new rows and a journal line; its dead rows wait for a compaction, which
 * writes every live row once more than a third of the file is dead; the keyword index and chunk
 * boundaries (written whole) wait until a quarter of the files changed (indexSave.ts). Both costs
 * are measured once and spread over the edits that lead to them: the compaction's bytes over the
 * dead rows that trigger it (half the live ones), the shortcuts' over a quarter of the files.
 * `per edit, in the long run` is what an edit costs.
 *
 *   node out/test/bench/cacheWrites.js [--sizes 20000,100000] [--edits 40] [--dimensions 1024]
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EmbeddingCache, saveSearchIndex, STALE_SHORTCUTS_SHARE, WorkspaceIndexer, ChunkBoundaries } from '../../src/core';
import { seededRandom } from '../emulator/random';
import { generatedSourceText } from './generatedSource';
import { listOption, numberOption } from './options';
import { median } from './stats';

const sizes = listOption('sizes', '20000,100000');
const edits = numberOption('edits', 40);
const dimensions = numberOption('dimensions', 1024);
const MODEL = 'Embeddings';

/** Bytes this process has handed to write(2) so far (Linux). */
function bytesWritten(): number {
  const match = /^wchar: (\d+)$/m.exec(fs.readFileSync('/proc/self/io', 'utf8'));
  if (!match) throw new Error('/proc/self/io has no wchar');
  return Number(match[1]);
}

/** Bytes `save` writes. */
async function measured(save: () => Promise<void>): Promise<number> {
  const before = bytesWritten();
  await save();
  return bytesWritten() - before;
}

/** Unit-length vectors that depend on the text only, as a service's would. */
function embedded(texts: string[]): Promise<Float32Array[]> {
  return Promise.resolve(
    texts.map((text) => {
      let seed = 0;
      for (let i = 0; i < text.length; i++) seed = (Math.imul(seed, 31) + text.charCodeAt(i)) >>> 0;
      const random = seededRandom(seed);
      return Float32Array.from({ length: dimensions }, () => random() * 2 - 1);
    }),
  );
}

interface Edit {
  bytes: number;
  changed: number;
}

interface Figures {
  n: number;
  files: number;
  /** The rows of an edited file (the median file's chunks), bytes. */
  fileRowBytes: number;
  rewrite: number;
  /** Median bytes an edit's save wrote, and the chunks it changed (each a dead row for the compaction). */
  oneChunk: Edit;
  wholeFile: Edit;
  compactionPerDeadRow: number;
  /** The keyword index and chunk boundaries written once, spread over the edits that make them due. */
  shortcutsPerEdit: number;
  shortcuts: number;
}

async function measure(n: number): Promise<Figures> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'gigachat-bench-writes-'));
  try {
    const chunkOptions = {};
    const indexer = new WorkspaceIndexer({
      embed: embedded,
      cache: await EmbeddingCache.load(directory, MODEL),
      chunkOptions,
      maxInFlight: 4,
      boundaries: await ChunkBoundaries.load(directory, 'lines-bench', chunkOptions),
    });
    const paths: string[] = [];
    let version = 0;
    const texts = function* () {
      for (let f = 0; indexer.stats.chunks < n; f++) {
        paths.push(`file:///w/src/module${f}.ts`);
        yield { path: paths[f], text: generatedSourceText(f) };
      }
    };
    await indexer.indexFiles(texts());
    const files = indexer.stats.files;
    // The first save writes everything: what every save after an edit wrote before.
    const rewrite = await measured(() => saveSearchIndex(indexer, true, 'changed'));
    const random = seededRandom(n);
    const rows: number[] = [];

    /** Edits a file (one line of its first function, or all of it), indexes and saves it as an edit does; returns the bytes its save wrote. */
    const edit = async (whole: boolean): Promise<Edit> => {
      const file = paths[Math.floor(random() * paths.length)];
      const f = Number(/module(\d+)/.exec(file)![1]);
      version += 1;
      const text = whole
        ? generatedSourceText(f + 1_000_000 * version)
        : generatedSourceText(f).replace(`step ${0} in module ${f}`, `step 0 in module ${f}, edit ${version}`);
      const { embeddedChunks } = await indexer.updateFile(file, text);
      rows.push(indexer.file(file)!.chunks.length * dimensions * 4);
      return { bytes: await measured(() => saveSearchIndex(indexer, true, 'stale')), changed: embeddedChunks };
    };
    const medianEdit = (all: Edit[]): Edit => ({ bytes: median(all.map((e) => e.bytes)), changed: median(all.map((e) => e.changed)) });
    // Kept below the compaction and shortcut thresholds, so these are the appends alone.
    const oneChunk = medianEdit(await sequence(edits, () => edit(false)));
    const wholeFile = medianEdit(await sequence(edits, () => edit(true)));
    if (indexer.cache.deadRows === 0 || indexer.shortcutLag === 0)
      throw new Error('the edits compacted or wrote the shortcuts: raise the size or lower --edits');

    // The shortcuts, once due: their bytes spread over a quarter of the files.
    const shortcuts = await measured(() => saveSearchIndex(indexer, true, 'changed'));
    const shortcutsPerEdit = shortcuts / Math.max(1, indexer.stats.files * STALE_SHORTCUTS_SHARE);

    // A compaction: a third of the files deleted at once.
    for (const file of paths.splice(0, Math.ceil(paths.length / 3))) indexer.removeFile(file);
    indexer.cache.prune(indexer.liveKeys());
    const deadBefore = indexer.cache.deadRows;
    const liveRows = indexer.cache.size;
    const compaction = await measured(() => indexer.cache.save());
    if (indexer.cache.deadRows !== 0) throw new Error(`no compaction after ${deadBefore} dead rows`);
    // It writes the live rows once the dead ones pass half of them (a third of the file).
    const compactionPerDeadRow = compaction / liveRows / (1 / 2);
    return { n, files, fileRowBytes: median(rows), rewrite, oneChunk, wholeFile, compactionPerDeadRow, shortcutsPerEdit, shortcuts };
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

async function sequence<T>(count: number, run: () => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < count; i++) results.push(await run());
  return results;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const times = (x: number) => `${x < 10 ? x.toFixed(2) : x.toFixed(0)}×`;

/** What an edit costs in the long run: its own save, its dead rows' share of a compaction, its share of the shortcuts. */
const longRun = (f: Figures, e: Edit) => e.bytes + e.changed * f.compactionPerDeadRow + f.shortcutsPerEdit;

async function main(): Promise<void> {
  const results: Figures[] = [];
  for (const n of sizes) results.push(await measure(n));
  console.log(
    `Bytes the search index writes per edited file: ${dimensions} dimensions, generated files of about ${Math.round(results[0].n / results[0].files)} chunks (their rows: ${kb(results[0].fileRowBytes)}), median of ${edits} edits; bytes handed to write(2)`,
  );
  const rows: [string, (f: Figures) => string, string][] = [
    ['a full rewrite of the cache (every save, before)', (f) => mb(f.rewrite), ''],
    ['keyword index and chunk boundaries, written whole', (f) => mb(f.shortcuts), ''],
    ['  their share per edit (a quarter of the files)', (f) => kb(f.shortcutsPerEdit), ''],
    ['a line typed: its save', (f) => `${kb(f.oneChunk.bytes)} (${f.oneChunk.changed} chunks new)`, ''],
    ['  in the long run', (f) => kb(longRun(f, f.oneChunk)), ''],
    ['  / the file’s rows', (f) => times(longRun(f, f.oneChunk) / f.fileRowBytes), '≤ 4×'],
    ['whole file rewritten: its save', (f) => `${kb(f.wholeFile.bytes)} (${f.wholeFile.changed} chunks new)`, ''],
    ['  in the long run', (f) => kb(longRun(f, f.wholeFile)), ''],
    ['  / the file’s rows', (f) => times(longRun(f, f.wholeFile) / f.fileRowBytes), '≤ 4×'],
    ['  a full rewrite / this', (f) => times(f.rewrite / longRun(f, f.wholeFile)), ''],
  ];
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  const cell = 26;
  console.log(`${''.padEnd(width)}${results.map((f) => `N = ${f.n.toLocaleString('en-US')}`.padEnd(cell)).join('')}target`);
  for (const [label, value, target] of rows) console.log(`${label.padEnd(width)}${results.map((f) => value(f).padEnd(cell)).join('')}${target}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
