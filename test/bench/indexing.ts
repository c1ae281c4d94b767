/**
 * Indexing a real codebase nobody here wrote (undici's `lib/` under node_modules) against the
 * emulator with a fixed latency per request, through the same pieces the extension uses (file
 * selection, chunker, WorkspaceIndexer with the adaptive limiter, ServiceClient over TLS, the
 * persistent embedding cache). The emulator runs on its own thread, so its work is not charged to
 * the client. Prints; asserts nothing.
 *   - first run: files, chunks, embedding requests, wall time, and its ratio to the ideal
 *     (requests × latency ÷ requests in flight: what the network alone costs), and where the time
 *     beyond it went (each request's time beyond the latency, request slots left empty);
 *   - second run, as after reopening the workspace: a new indexer loading the saved cache,
 *     nothing changed: embedding requests (goal 0) and wall time.
 *
 *   node out/test/bench/indexing.js [--latency 100] [--in-flight 2] [--root node_modules/undici/lib]
 */
import * as fs from 'node:fs';
import { repoRoot as root } from '../unit/support/repoRoot';
import * as os from 'node:os';
import * as path from 'node:path';
import { EmbeddingCache, readSelectedFiles, selectFiles, ServiceClient, WorkspaceIndexer } from '../../src/core';
import { DiskFolder } from '../unit/support/diskFolder';
import { clientOptionsFor } from '../unit/support/emulatorClient';
import { startEmulatorThread, type EmulatorThread } from './emulatorThread';
import { option } from './options';
import { median } from './stats';

const latencyMs = Number(option('latency', '100'));
const inFlight = Number(option('in-flight', '2'));
const sourceRoot = path.resolve(root, option('root', 'node_modules/undici/lib'));
const MODEL = 'Embeddings';

/** When each embedding request started and ended, in ms from the start of the run. */
interface RequestTimes {
  start: number;
  end: number;
}

async function indexOnce(client: ServiceClient, emulator: EmulatorThread, cacheDir: string, folder: string) {
  const cache = await EmbeddingCache.load(cacheDir, MODEL);
  const requests: RequestTimes[] = [];
  let started = 0;
  const indexer = new WorkspaceIndexer({
    embed: async (texts, signal) => {
      const start = performance.now() - started;
      const vectors = await client.embeddings(texts, { model: MODEL, signal });
      requests.push({ start, end: performance.now() - started });
      return vectors;
    },
    cache,
    maxInFlight: inFlight,
  });
  const selection = await selectFiles([new DiskFolder(folder)], { maxFileBytes: 1024 * 1024, maxFiles: 5000 });
  await emulator.resetCounts();
  started = performance.now();
  const result = await indexer.indexFiles(readSelectedFiles(selection.files, 1024 * 1024, () => undefined));
  const wallMs = performance.now() - started;
  cache.prune(indexer.liveKeys());
  await cache.save();
  return { result, wallMs, requests, embeddingRequests: await emulator.count('embeddings') };
}

/**
 * Where the time beyond the ideal went: before the first request (reading and chunking the first
 * batch), in each request beyond the latency (the service making the vectors and sending them, the
 * client parsing them), and with a request slot empty (waiting for text to embed, or the last round
 * with fewer requests than slots).
 */
function gapReasons(requests: RequestTimes[], wallMs: number, ideal: number): string[] {
  const durations = requests.map((r) => r.end - r.start);
  const perRequest = median(durations);
  const servedIdeal = (requests.length * perRequest) / inFlight;
  const firstStart = Math.min(...requests.map((r) => r.start));
  const busy = durations.reduce((sum, d) => sum + d, 0);
  const emptySlots = wallMs * inFlight - busy;
  return [
    `where the ${(wallMs - ideal).toFixed(0)} ms beyond the ideal go:`,
    `  a request takes ${perRequest.toFixed(0)} ms (median), ${(perRequest - latencyMs).toFixed(0)} ms beyond the latency: the service making and sending ${MODEL} vectors as JSON, the client parsing them;`,
    `    requests × that ÷ in flight = ${servedIdeal.toFixed(0)} ms, ${(servedIdeal / ideal).toFixed(2)}× the ideal: the most a client can reach with ${inFlight} in flight (wall time ${(wallMs / servedIdeal).toFixed(2)}× that)`,
    `  request slots stood empty ${(emptySlots / inFlight).toFixed(0)} ms per slot, ${firstStart.toFixed(0)} ms of it before the first request (reading and chunking the first batch) and the rest mostly in the last round`,
  ];
}

async function main(): Promise<void> {
  const emulator = await startEmulatorThread({ latencyMs, streamDelayMs: 0 });
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gigachat-bench-cache-'));
  // A copy outside this repository: in place, git's rules (node_modules is ignored) rightly leave out every file.
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'gigachat-bench-source-'));
  fs.cpSync(sourceRoot, folder, { recursive: true });
  const client = new ServiceClient(clientOptionsFor(emulator));
  try {
    await client.authorize(); // the token exchange is not part of indexing
    const first = await indexOnce(client, emulator, cacheDir, folder);
    const ideal = (first.embeddingRequests * latencyMs) / inFlight;
    console.log(`source: ${path.relative(root, sourceRoot)}; latency ${latencyMs} ms per request, ${inFlight} in flight`);
    console.log(
      `first run:  ${first.result.files} files, ${first.result.chunks} chunks, ${first.embeddingRequests} embedding requests, ${first.wallMs.toFixed(0)} ms`,
    );
    console.log(`            ideal (requests × latency ÷ in flight) ${ideal.toFixed(0)} ms; ratio ${(first.wallMs / ideal).toFixed(2)}× (target ≤ 1.2×)`);
    for (const line of gapReasons(first.requests, first.wallMs, ideal)) console.log(`            ${line}`);
    const second = await indexOnce(client, emulator, cacheDir, folder);
    console.log(
      `second run, nothing changed (cache loaded from disk): ${second.embeddingRequests} embedding requests (goal 0), ${second.result.files} files, ${second.wallMs.toFixed(0)} ms`,
    );
  } finally {
    await client.dispose();
    await emulator.stop();
    fs.rmSync(cacheDir, { recursive: true, force: true });
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

void main();
