/**
 * The memory semantic search keeps per indexed chunk, as the user pays it: the resident set size
 * (rss) of a process, through the product's own path over a workspace like a user's (real
 * TypeScript and JavaScript from node_modules: realSources.ts): an EmbeddingCache, a
 * WorkspaceIndexer cutting files along their syntax tree in a worker thread (WorkerChunker, as the
 * extension does), the embed function making 1,024-dimensional vectors in process (no client or
 * service charged). First the workspace is indexed and saved; then, as a window opened again
 * does, the cache is loaded, the workspace rescanned from it (0 embedding requests; files whose
 * text is unchanged cut from their recorded boundaries, no parse) and searched once, with the
 * memory after each stage. For comparison the same reopening with the parser in the process and
 * no recorded boundaries (how the extension did it before). Each in a process of its own. Prints;
 * asserts nothing.
 *
 * The figure is rss after the search (and a garbage collection) minus rss before the load, per
 * chunk, against the raw floats (4 × dimensions bytes): target ≤ 0.75×, the peak (the process's
 * maximum rss) above it ≤ 1.0×. And the rescan of an unchanged workspace: no file parsed, in at
 * most 2× the time of loading the cache.
 *
 * Last, the measure of the real extension host's figure (test/harness/searchAfterReload.js) in a
 * process of its own: rss before the cache is loaded, one search (load, rescan, search), rss 3 to
 * 60 s after with nothing collected by force, and the peak; `--figures <file>` writes it as JSON
 * for `npm run bench` to print beside the real extension host's.
 *
 *   node out/test/bench/searchMemory.js [--files 1500] [--dimensions 1024] [--figures <file>]
 */
import { execFileSync } from 'node:child_process';
import { repoRoot as root } from '../unit/support/repoRoot';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import {
  ChunkBoundaries,
  EmbeddingCache,
  loadKeywords,
  saveKeywords,
  SyntaxChunker,
  WorkerChunker,
  WorkspaceIndexer,
  type SourceChunker,
  type SourceFile,
} from '../../src/core';
import { seededRandom } from '../emulator/random';
import { numberOption, option } from './options';
import { realSources } from './realSources';

const fileCount = numberOption('files', 1500);
const dimensions = numberOption('dimensions', 1024);
/** Where to write the figures measured as in the real extension host (npm run bench sets it, to show both side by side). */
const figuresFile = option('figures', '');
const MODEL = 'Embeddings';
/** The query of the real extension host's figure too. */
const QUERY = 'send the request again after a redirect';
/** The parser and the parsing thread as the build writes them (esbuild.js). */
const parserFolder = path.join(root, 'dist/tree-sitter');
const workerFile = path.join(root, 'out/src/core/search/syntax/chunkWorker.js');

v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

/** Memory after collecting garbage (and letting V8 free array buffers, which it does afterwards). */
async function settled(): Promise<NodeJS.MemoryUsage> {
  collect();
  await new Promise((resolve) => setTimeout(resolve, 100));
  collect();
  return process.memoryUsage();
}

async function* workspace(): AsyncGenerator<SourceFile> {
  for (const file of realSources(path.join(root, 'node_modules'), fileCount))
    yield { path: `file:///w/${file.relative}`, text: await fs.promises.readFile(file.absolute, 'utf8') };
}

/** Unit-length vectors that depend on the text only, as a service's would. */
async function embed(texts: string[]): Promise<Float32Array[]> {
  return texts.map((text) => {
    let seed = 0;
    for (let i = 0; i < text.length; i++) seed = (Math.imul(seed, 31) + text.charCodeAt(i)) >>> 0;
    const random = seededRandom(seed);
    return Float32Array.from({ length: dimensions }, () => random() * 2 - 1);
  });
}

type Mode = 'first' | 'reopened' | 'reopenedInProcess' | 'asUser';

/** When resident memory is read after the search starts, as in the real extension host (test/harness/searchAfterReload.js). */
const SAMPLE_AFTER_MS = [3_000, 15_000, 30_000, 60_000];

interface AsUser {
  chunks: number;
  sampledAtMs: number[];
  /** Per chunk above before the cache was loaded, at each of `sampledAtMs`, nothing collected by force; and the highest every 100 ms. */
  rssSampledPerChunk: number[];
  rssPeakPerChunk: number;
}

/**
 * The measure of the real extension host's figure, in this process: rss read before the cache is
 * loaded, then the search that loads it, rescans and searches, and rss 3, 15, 30 and 60 s after
 * it started and every 100 ms for the peak, with no garbage collected by force.
 */
async function asUser(directory: string): Promise<AsUser> {
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const before = process.memoryUsage.rss();
  let peak = before;
  const poll = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 100);
  const started = performance.now();
  const cache = await EmbeddingCache.load(directory, MODEL);
  const chunkOptions = {};
  const boundaries = await ChunkBoundaries.load(directory, 'syntax-bench', chunkOptions);
  const keywords = await loadKeywords(directory, MODEL);
  const chunker = new WorkerChunker(workerFile, parserFolder, console.error, 500);
  const indexer = new WorkspaceIndexer({ embed, cache, maxInFlight: 4, chunker, chunkOptions, boundaries, keywords });
  await indexer.indexFiles(workspace());
  const [query] = await embed([QUERY]);
  if (indexer.search(query, 10, QUERY).length !== 10) throw new Error('the search found too little');
  const samples: number[] = [];
  for (const at of SAMPLE_AFTER_MS) {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - (performance.now() - started))));
    samples.push(process.memoryUsage.rss());
  }
  clearInterval(poll);
  const { chunks } = indexer.stats;
  return {
    chunks,
    sampledAtMs: SAMPLE_AFTER_MS,
    rssSampledPerChunk: samples.map((rss) => (rss - before) / chunks),
    rssPeakPerChunk: (Math.max(peak, ...samples) - before) / chunks,
  };
}

interface Stage {
  name: string;
  memory: NodeJS.MemoryUsage;
  ms: number;
}

interface Measured {
  chunks: number;
  files: number;
  requests: number;
  parsed: number;
  reused: number;
  before: NodeJS.MemoryUsage;
  stages: Stage[];
  peakRss: number;
}

/** Opens the cache in `directory`, indexes the workspace into it, searches, saves; measures each stage. */
async function indexWorkspace(directory: string, mode: Mode): Promise<Measured> {
  const before = await settled();
  const stages: Stage[] = [];
  let started = performance.now();
  const stage = async (name: string) => {
    const ms = performance.now() - started;
    stages.push({ name, memory: await settled(), ms });
    started = performance.now();
  };
  const chunkOptions = {};
  const cache = await EmbeddingCache.load(directory, MODEL);
  const inProcess = mode === 'reopenedInProcess';
  const boundaries = inProcess ? undefined : await ChunkBoundaries.load(directory, 'syntax-bench', chunkOptions);
  const keywords = inProcess ? undefined : await loadKeywords(directory, MODEL);
  await stage('cache loaded');
  const chunker: SourceChunker = inProcess ? await SyntaxChunker.load(parserFolder) : new WorkerChunker(workerFile, parserFolder, console.error, 500);
  const indexer = new WorkspaceIndexer({ embed, cache, maxInFlight: 4, chunker, chunkOptions, boundaries, keywords });
  const result = await indexer.indexFiles(workspace());
  // The parsing thread ends once idle: what it held is not the index's.
  if (chunker instanceof WorkerChunker) while (chunker.running) await new Promise((resolve) => setTimeout(resolve, 50));
  await stage('rescanned');
  const [query] = await embed([QUERY]);
  if (indexer.search(query, 10, QUERY).length !== 10) throw new Error('the search found too little');
  await stage('searched');
  if (mode === 'first') {
    await cache.save();
    await boundaries?.save();
    const { snapshot, files } = indexer.keywords.toSave();
    await saveKeywords(directory, MODEL, snapshot, files);
  }
  const { chunks, files } = indexer.stats;
  return { chunks, files, requests: result.requests, ...indexer.chunkedFiles, before, stages, peakRss: process.resourceUsage().maxRSS * 1024 };
}

/** Runs one indexing in a process of its own (so nothing of the one before is still in memory); its figures. */
function inChildProcess(directory: string, mode: 'asUser'): AsUser;
function inChildProcess(directory: string, mode: Exclude<Mode, 'asUser'>): Measured;
function inChildProcess(directory: string, mode: Mode): Measured | AsUser {
  const output = execFileSync(
    process.execPath,
    [__filename, '--child', directory, '--mode', mode, '--files', String(fileCount), '--dimensions', String(dimensions)],
    {
      encoding: 'utf8',
    },
  );
  return JSON.parse(output) as Measured | AsUser;
}

const bytes = (x: number) => `${Math.round(x).toLocaleString('en-US')} B`;

function report(label: string, m: Measured): void {
  const floats = 4 * dimensions;
  const per = (after: NodeJS.MemoryUsage, key: keyof NodeJS.MemoryUsage) => (after[key] - m.before[key]) / m.chunks;
  console.log(
    `${label}: ${m.files.toLocaleString('en-US')} files (${m.parsed} parsed, ${m.reused} cut from their recorded boundaries), ${m.requests} embedding requests`,
  );
  for (const { name, memory, ms } of m.stages) {
    const heapFree = per(memory, 'heapTotal') - per(memory, 'heapUsed');
    console.log(
      `  ${name.padEnd(13)} ${(ms / 1000).toFixed(2).padStart(6)} s  rss +${bytes(per(memory, 'rss'))} per chunk = ${(per(memory, 'rss') / floats).toFixed(2)}× the floats: external (pages) ${bytes(per(memory, 'external'))}, live heap ${bytes(per(memory, 'heapUsed'))}, free heap ${bytes(heapFree)}`,
    );
  }
  const last = m.stages[m.stages.length - 1].memory;
  const settledPerChunk = per(last, 'rss');
  const peakPerChunk = (m.peakRss - m.before.rss) / m.chunks;
  console.log(
    `  settled +${bytes(settledPerChunk)} per chunk = ${(settledPerChunk / floats).toFixed(2)}× the floats (target ≤ 0.75×, ${bytes(0.75 * floats)}); peak +${bytes(peakPerChunk)} = ${(peakPerChunk / floats).toFixed(2)}× (target ≤ 1.0×)`,
  );
}

/** The real extension host's measure (see asUser), in this process. */
function reportAsUser(user: AsUser): void {
  const floats = 4 * dimensions;
  const sampled = user.rssSampledPerChunk.map((x, i) => `${user.sampledAtMs[i] / 1000} s +${bytes(x)}`).join(', ');
  const settled = user.rssSampledPerChunk[user.rssSampledPerChunk.length - 1];
  console.log(
    `as the real extension host is measured (a process that has not loaded the index, one search, nothing collected by force): rss per chunk above before it: ${sampled}; ` +
      `at 60 s ${(settled / floats).toFixed(2)}× the floats (target ≤ 0.75×), peak +${bytes(user.rssPeakPerChunk)} = ${(user.rssPeakPerChunk / floats).toFixed(2)}× (target ≤ 1.0×)`,
  );
}

async function main(): Promise<void> {
  const child = option('child', '');
  if (child) {
    const mode = option('mode', 'first') as Mode;
    process.stdout.write(JSON.stringify(mode === 'asUser' ? await asUser(child) : await indexWorkspace(child, mode)));
    return;
  }
  if (!fs.existsSync(workerFile) || !fs.existsSync(parserFolder)) throw new Error('build first: node esbuild.js && node esbuild.js --tests');
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'gigachat-bench-memory-'));
  try {
    const first = inChildProcess(directory, 'first');
    const reopened = inChildProcess(directory, 'reopened');
    const inProcess = inChildProcess(directory, 'reopenedInProcess');
    const user = inChildProcess(directory, 'asUser');
    const vectorsFile = fs.readdirSync(directory).find((name) => name.endsWith('.f32'))!;
    const size = (fs.statSync(path.join(directory, vectorsFile)).size / 2 ** 20).toFixed(0);
    console.log(
      `${first.chunks.toLocaleString('en-US')} chunks in ${first.files.toLocaleString('en-US')} real source files, ${dimensions} dimensions (the floats alone: ${4 * dimensions} B a chunk); cache file ${size} MiB`,
    );
    report('first indexing', first);
    report('reopened: cache loaded, unchanged files cut from their boundaries, parsing in a worker', reopened);
    report('for comparison, reopened parsing every file in the process (before)', inProcess);
    const [load, rescan] = reopened.stages.map((stage) => stage.ms);
    console.log(
      `rescan of the unchanged workspace: ${reopened.parsed} files parsed (target 0), ${(rescan / 1000).toFixed(2)} s = ${(rescan / load).toFixed(2)}× loading the cache (target ≤ 2×); parsing every file: ${(inProcess.stages[1].ms / 1000).toFixed(2)} s`,
    );
    reportAsUser(user);
    if (figuresFile) fs.writeFileSync(figuresFile, JSON.stringify(user));
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
