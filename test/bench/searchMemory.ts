/**
 * The memory semantic search keeps per indexed chunk, as the user pays it: the resident set size
 * (rss) of a process, through the product's own path: an EmbeddingCache, a WorkspaceIndexer
 * indexing a generated workspace (the embed function makes 1,024-dimensional vectors in process,
 * so no client or service is charged) and a search; then again after reopening, as a new window
 * does: the cache loaded from disk, the workspace indexed from it (0 embedding requests) and one
 * search. Each in a process of its own, so nothing of the one before is in memory. Prints; asserts
 * nothing.
 *
 * Reopened, the figure is rss after the search (and a garbage collection) minus rss before the
 * load, per chunk: target 0.6 × 4 × dimensions bytes (the vectors' rounded halves, half the
 * floats, and little besides). Its parts: the pages (external memory: WebAssembly memories), the
 * live heap (keys, chunk records, previews), the heap V8 keeps committed but free after the
 * garbage of indexing (its young generation grows to its maximum while indexing allocates fast, a
 * cost per process, not per chunk), and the rest of rss. The peak while loading (the process's
 * maximum rss) above that steady state, against the raw floats (target ≤ 1.0×).
 *
 *   node out/test/bench/searchMemory.js [--chunks 100000] [--dimensions 1024]
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { EmbeddingCache, WorkspaceIndexer, type SourceFile } from '../../src/core';
import { seededRandom } from '../emulator/random';
import { generatedSourceText } from './generatedSource';
import { numberOption, option } from './options';

const chunkTarget = numberOption('chunks', 100_000);
const dimensions = numberOption('dimensions', 1024);
/** Chunks in each generated file (of the chunker's default 1,500 characters). */
const CHUNKS_PER_FILE = 8;
const MODEL = 'Embeddings';

v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

/** Memory after collecting garbage (and letting V8 free array buffers, which it does afterwards). */
async function settled(): Promise<NodeJS.MemoryUsage> {
  collect();
  await new Promise((resolve) => setTimeout(resolve, 100));
  collect();
  return process.memoryUsage();
}

/** A source file of `CHUNKS_PER_FILE` chunks, different for each `n`. */
function sourceFile(n: number): SourceFile {
  return { path: `src/module${n % 100}/file${n}.ts`, text: generatedSourceText(n) };
}

function* workspace(files: number): Generator<SourceFile> {
  for (let n = 0; n < files; n++) yield sourceFile(n);
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

interface Measured {
  chunks: number;
  files: number;
  requests: number;
  /** rss after minus before, per chunk. */
  rssPerChunk: number;
  /** Of which the vectors' pages (external memory). */
  pagesPerChunk: number;
  /** Of which the heap in use. */
  liveHeapPerChunk: number;
  /** Of which heap V8 keeps committed but free. */
  freeHeapPerChunk: number;
  /** The process's peak rss above its rss after, per chunk. */
  peakAbovePerChunk: number;
  /** Float32 rows held in memory, not read back from the file. */
  rowsInMemory: number;
  ms: number;
}

/** Opens the cache in `directory`, indexes the workspace into it, searches, saves; measures what stays. */
async function indexWorkspace(directory: string, files: number): Promise<Measured> {
  const before = await settled();
  const started = performance.now();
  const cache = await EmbeddingCache.load(directory, MODEL);
  const indexer = new WorkspaceIndexer({ embed, cache, maxInFlight: 4 });
  const result = await indexer.indexFiles(workspace(files));
  const [query] = await embed(['step 3 of module 42']);
  if (indexer.search(query, 10).length !== 10) throw new Error('the search found too little');
  await cache.save();
  const ms = performance.now() - started;
  const after = await settled();
  const peak = process.resourceUsage().maxRSS * 1024;
  const { chunks } = indexer.stats;
  const heapUsed = after.heapUsed - before.heapUsed;
  return {
    chunks,
    files,
    requests: result.requests,
    rssPerChunk: (after.rss - before.rss) / chunks,
    pagesPerChunk: (after.external - before.external) / chunks,
    liveHeapPerChunk: heapUsed / chunks,
    freeHeapPerChunk: (after.heapTotal - before.heapTotal - heapUsed) / chunks,
    peakAbovePerChunk: (peak - after.rss) / chunks,
    rowsInMemory: cache.rowsInMemory,
    ms,
  };
}

/** Runs one indexing in a process of its own (so nothing of the one before is still in memory); its figures. */
function inChildProcess(directory: string): Measured {
  const output = execFileSync(process.execPath, [__filename, '--child', directory, '--chunks', String(chunkTarget), '--dimensions', String(dimensions)], {
    encoding: 'utf8',
  });
  return JSON.parse(output) as Measured;
}

const bytes = (x: number) => `${Math.round(x).toLocaleString('en-US')} B`;

function report(label: string, m: Measured): void {
  const floats = 4 * dimensions;
  const rest = m.rssPerChunk - m.pagesPerChunk - m.liveHeapPerChunk - m.freeHeapPerChunk;
  console.log(
    `${label.padEnd(27)} rss +${bytes(m.rssPerChunk)} per chunk = ${(m.rssPerChunk / floats).toFixed(2)}× the floats (target ≤ ${bytes(0.6 * floats)}, 0.6×): pages ${bytes(m.pagesPerChunk)}, live heap ${bytes(m.liveHeapPerChunk)}, free heap ${bytes(m.freeHeapPerChunk)}, the rest ${bytes(rest)}; peak ${(m.peakAbovePerChunk / floats).toFixed(2)}× the floats above it (target ≤ 1.0×); ${m.rowsInMemory.toLocaleString('en-US')} rows held in memory; ${m.requests} embedding requests, ${(m.ms / 1000).toFixed(1)} s`,
  );
}

async function main(): Promise<void> {
  const child = option('child', '');
  if (child) {
    process.stdout.write(JSON.stringify(await indexWorkspace(child, Math.ceil(chunkTarget / CHUNKS_PER_FILE))));
    return;
  }
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'gigachat-bench-memory-'));
  try {
    const first = inChildProcess(directory);
    const reopened = inChildProcess(directory);
    const vectorsFile = fs.readdirSync(directory).find((name) => name.endsWith('.f32'))!;
    const size = (fs.statSync(path.join(directory, vectorsFile)).size / 2 ** 20).toFixed(0);
    console.log(
      `${first.chunks.toLocaleString('en-US')} chunks in ${first.files.toLocaleString('en-US')} generated files, ${dimensions} dimensions (the floats alone: ${4 * dimensions} B a chunk); cache file ${size} MiB`,
    );
    report('first indexing', first);
    report('reopened (cache from disk)', reopened);
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
