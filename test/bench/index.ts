/**
 * `npm run bench`: the product's figures, each printed with its target. Benchmarks print and
 * compare within one run; they assert nothing (the tests check correctness).
 * `--only a,b` runs those alone: script names (searchMemory, cacheWrites…), `sizes`, `host` (the real extension host).
 *   - activation time of the extension in the real extension host (code-server), and that host's memory per chunk for one search after a reload, beside the same measure in a bare process;
 *   - size of each bundle in dist/ (extension.js is what activation loads) and of the .vsix;
 *   - the chat view's render cost for a streamed reply versus one render (test/bench/webviewRender.ts);
 *   - what typesetting 50 formulas adds per streamed delta, and the longest frame (test/bench/mathRender.ts);
 *   - the vector index's search with its int8 and bfloat16 first passes against a native read of the same float32 bytes (memchr), usearch's exact search and a naive baseline (test/bench/vectorIndex.ts);
 *   - indexing a real codebase against the emulator with 100 ms latency, then again from the cache (test/bench/indexing.ts);
 *   - resident memory per indexed chunk through the cache, indexer and index, first and after reopening, and the peak while loading; the rescan of an unchanged workspace (test/bench/searchMemory.ts);
 *   - bytes the search index's cache writes to disk per edited file, against the file's own rows and a full rewrite (test/bench/cacheWrites.ts);
 *   - Recall@10 and MRR of 57 questions over this repository and undici, by vector and hybrid ranking, per chunker (test/bench/retrieval.ts);
 *   - cutting this repository's src and undici's lib into chunks by lines versus along the syntax tree (test/bench/syntaxChunking.ts);
 *   - listing and selecting 50,000 files: time, memory, event-loop hold, what maxFiles keeps (test/bench/largeWorkspace.ts);
 *   - token exchanges of 20 concurrent callers over ten short token lifetimes (test/bench/tokenRenewal.ts);
 *   - the time a proxy adds per request on loopback (test/bench/proxyOverhead.ts);
 *   - the streamed-reply reader on one 4 MiB event versus short events (test/bench/sseReader.ts);
 *   - reading a streamed reply per delta on v2 against v1, and linking a web answer's sources (test/bench/replyContracts.ts);
 *   - what suggestions as you type add to the service's latency, and the cache while typing (test/bench/completionLatency.ts);
 *   - how often a suggestion's reply is cleaned into exactly the missing code, over places cut from this repository and undici (test/bench/completionCleaning.ts);
 *   - what the extension adds to a suggestion's latency, and the requests sent while typing (test/bench/completionTyping.ts);
 *   - what the language model provider adds to the first text of a reply, and its token-count cache (test/bench/languageModelProvider.ts).
 *   - what guarding the links of @gigachat's answers costs per streamed delta (test/bench/linkGuard.ts).
 *   - a commit message's tokens per 1,000 changed lines and time to its first character, against sending the raw diff (test/bench/commitMessage.ts).
 *   - one account's streams shared by a day of use: 429s, what background work adds to a question, indexing in the time left free (test/bench/streamSharing.ts).
 */
import { execFileSync } from 'node:child_process';
import { repoRoot as root } from '../unit/support/repoRoot';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { option } from './options';

function section(title: string): void {
  console.log(`\n== ${title} ==`);
}

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

function sizes(): void {
  section('Package size');
  const version = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
  const bundles = ['dist/extension.js (loaded at activation)', 'dist/services.js (on first use)', 'dist/undici.js (on the first request)', 'dist/webview.js'];
  for (const [file, note = ''] of [...bundles.map((entry) => entry.split(' (')), [`gigachat-${version}.vsix`]]) {
    const full = path.join(root, file);
    const size = fs.existsSync(full) ? kib(fs.statSync(full).size).padStart(10) : 'missing (run npm run package)';
    console.log(`${file.padEnd(24)} ${size}${note ? `  (${note}` : ''}`);
  }
  const grammars = path.join(root, 'dist/tree-sitter');
  const grammarBytes = fs.existsSync(grammars) ? fs.readdirSync(grammars).reduce((sum, name) => sum + fs.statSync(path.join(grammars, name)).size, 0) : 0;
  console.log(`${'dist/tree-sitter/'.padEnd(24)} ${kib(grammarBytes).padStart(10)}  (the parser, loaded when an index opens)`);
}

/** What searchMemory.js and the real extension host each measure as a user meets it (test/harness/searchAfterReload.js). */
interface AsUser {
  chunks: number;
  sampledAtMs: number[];
  rssSampledPerChunk: number[];
  rssPeakPerChunk: number;
}

/** Where searchMemory.js writes its figures measured as in the real extension host, to print beside the host's. */
const benchAsUserFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gigachat-bench-')), 'searchMemory.json');

/**
 * Runs the benchmark suite alone in a real VS Code, so nothing has activated the extension before:
 * activation time; then, once it has indexed a workspace of real sources, the window reloads and
 * one search is measured from outside the extension host (test/harness/searchAfterReload.js),
 * printed beside the same measure in a bare process (searchMemory.js) over the same files.
 */
function inExtensionHost(): void {
  section('Activation in the real extension host (target < 50 ms), and the memory of one search after a reload');
  const out = path.join(path.dirname(benchAsUserFile), 'activation.json');
  try {
    execFileSync(process.execPath, [path.join(root, 'test/harness/runIntegration.js'), '--grep', 'benchmark'], {
      cwd: root,
      env: { ...process.env, GIGACHAT_IT_BENCH_OUT: out, GIGACHAT_IT_SOURCES: path.join(root, 'node_modules') },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  } catch (error) {
    console.log(`the run failed: ${(error as Error).message.split('\n')[0]}`);
  }
  try {
    const { activationMs, wasActive, searchAfterReload } = JSON.parse(fs.readFileSync(out, 'utf8')) as {
      activationMs: number;
      wasActive: boolean;
      searchAfterReload?: AsUser & { searchMs: number };
    };
    console.log(`activate(): ${activationMs.toFixed(1)} ms${wasActive ? ' (already active: figure not meaningful)' : ''}`);
    if (!searchAfterReload) return console.log('no figure for the search after a reload (see the run above)');
    const bench = fs.existsSync(benchAsUserFile) ? (JSON.parse(fs.readFileSync(benchAsUserFile, 'utf8')) as AsUser) : undefined;
    const floats = 4 * 1024;
    const b = (x: number) => `${Math.round(x).toLocaleString('en-US')} B`;
    const settled = (m: AsUser) => m.rssSampledPerChunk[m.rssSampledPerChunk.length - 1];
    const line = (label: string, m: AsUser) =>
      `  ${label.padEnd(46)} ${m.chunks.toLocaleString('en-US').padStart(7)} chunks  ${m.rssSampledPerChunk.map(b).join(' / ')}  settled ${(settled(m) / floats).toFixed(2)}×, peak ${b(m.rssPeakPerChunk)} = ${(m.rssPeakPerChunk / floats).toFixed(2)}×`;
    console.log(
      `1,500 real source files; rss per chunk above before the search at ${searchAfterReload.sampledAtMs.map((ms) => `${ms / 1000} s`).join(' / ')} (targets: at 60 s ≤ 0.75× the floats, ${b(0.75 * floats)}; peak ≤ 1.0×)`,
    );
    console.log(line(`real VS Code, after a reload (search ${(searchAfterReload.searchMs / 1000).toFixed(1)} s)`, searchAfterReload));
    if (!bench) return console.log('  the bench process: not measured in this run (searchMemory.js did not run)');
    console.log(line('the bench process (searchMemory.js), same files', bench));
    const ratio = settled(searchAfterReload) / settled(bench);
    console.log(
      `  real VS Code / the bench process, settled: ${ratio.toFixed(2)}× (goal: within 10%, 0.90–1.10×); peak: ${(searchAfterReload.rssPeakPerChunk / bench.rssPeakPerChunk).toFixed(2)}×`,
    );
  } catch (error) {
    console.log(`could not measure: ${(error as Error).message.split('\n')[0]}`);
  } finally {
    fs.rmSync(path.dirname(benchAsUserFile), { recursive: true, force: true });
  }
}

/** The benchmarks that run as their own script, each under its heading. */
const scripts: [heading: string, script: string][] = [
  ['Chat view: streamed versus one render (target ≤ 2×)', 'webviewRender.js'],
  ['Chat view: what typesetting formulas adds to a streamed reply (target: longest frame < 16 ms)', 'mathRender.js'],
  [
    'Vector index: int8 and bfloat16 first passes versus a native read of the floats (targets: int8 ≤ 0.35× its time and memory, bf16 ≤ 2×), usearch and a naive baseline',
    'vectorIndex.js',
  ],
  ['Semantic search: indexing undici/lib against the emulator (100 ms per request)', 'indexing.js'],
  [
    'Semantic search: resident memory per indexed chunk after reopening and one search (target ≤ 0.75 × 4 × dimensions bytes; peak ≤ 1.0×), and the rescan of an unchanged workspace (no file parsed, ≤ 2× loading the cache)',
    'searchMemory.js',
  ],
  ['Semantic search: bytes written to disk per edited file, at 20,000 and 100,000 chunks (target ≤ 4× the file’s own rows)', 'cacheWrites.js'],
  ['Semantic search: finding the lines that answer a question in real code, vector versus hybrid ranking (Recall@10, MRR)', 'retrieval.js'],
  ['Semantic search: chunks by lines versus along the syntax tree: speed, and declarations kept whole', 'syntaxChunking.js'],
  ['Semantic search: listing and selecting a workspace of 50,000 files', 'largeWorkspace.js'],
  ['Token exchanges under continuous use (goal: one per token, none failed)', 'tokenRenewal.js'],
  ['Proxy: time added per request on loopback', 'proxyOverhead.js'],
  ['Streamed replies: one 4 MiB event versus the same bytes in short events (target ≤ 2×)', 'sseReader.js'],
  ['Streamed replies: what the current contract (v2) costs per delta against the previous one (v1), and linking web sources', 'replyContracts.js'],
  ["VS Code's Chat: what the model provider adds to the first text (target ≤ 5 ms), and its token-count cache", 'languageModelProvider.js'],
  ["@gigachat's answers: what guarding their links costs per streamed delta (target: worst < 16 ms)", 'linkGuard.js'],
  ['Suggestions as you type: what they add to the service latency, and answering a suggestion being typed', 'completionLatency.js'],
  ['Suggestions as you type: cleaning a reply into exactly the missing code, over places cut from real code (target ≥ 95%)', 'completionCleaning.js'],
  [
    'Suggestions as you type: what the extension adds (target p95 < 5 ms), and requests while typing 200 characters (target ≤ 30, stale ones aborted)',
    'completionTyping.js',
  ],
  ['Commit messages: tokens sent per 1,000 changed lines and the first character at 100 ms latency, against the raw diff', 'commitMessage.js'],
  [
    "One account's streams, a day of use at 1 and 10 streams (goals: 429s ≤ 1 per 100 sent, none shown; a question delayed ≤ one batch; indexing ≥ 90% of the free time)",
    'streamSharing.js',
  ],
];

function runScript(heading: string, script: string): void {
  section(heading);
  const args = script === 'searchMemory.js' ? ['--figures', benchAsUserFile] : [];
  execFileSync(process.execPath, [path.join(root, 'out/test/bench', script), ...args], { cwd: root, stdio: 'inherit' });
}

/** `--only searchMemory,cacheWrites,host`: those scripts (by name) and the real extension host alone; all without it. */
const only = option('only', '')
  .split(',')
  .filter(Boolean)
  .map((name) => name.replace(/\.js$/, ''));
const chosen = (name: string) => only.length === 0 || only.includes(name);

if (chosen('sizes')) sizes();
for (const [heading, script] of scripts) if (chosen(script.replace(/\.js$/, ''))) runScript(heading, script);
if (chosen('host')) inExtensionHost();
else fs.rmSync(path.dirname(benchAsUserFile), { recursive: true, force: true });
