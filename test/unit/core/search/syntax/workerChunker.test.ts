import * as assert from 'node:assert/strict';
import { repoRoot } from '../../../support/repoRoot';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chunkText } from '../../../../../src/core/search/syntax/chunker';
import { SyntaxChunker } from '../../../../../src/core/search/syntax/syntaxChunker';
import { WorkerChunker } from '../../../../../src/core/search/syntax/workerChunker';
import { writeParserFolder } from '../../../support/parserFolder';

/** The parsing thread as the test build writes it (esbuild.js). */
const WORKER_FILE = path.join(repoRoot, 'out/src/core/search/syntax/chunkWorker.js');

const SOURCES = ['node_modules/undici/lib/core/util.js', 'node_modules/undici/types/dispatcher.d.ts', 'src/core/search/chunkStore.ts'].map((file) => ({
  path: file,
  text: fs.readFileSync(path.resolve(repoRoot, file), 'utf8'),
}));

describe('cutting files in a worker thread', function () {
  this.timeout(20_000);
  let parserFolder: string;
  let inProcess: SyntaxChunker;
  const chunkers: WorkerChunker[] = [];
  before(async () => {
    parserFolder = writeParserFolder();
    inProcess = await SyntaxChunker.load(parserFolder);
  });
  after(() => {
    inProcess.dispose();
    for (const chunker of chunkers) chunker.dispose();
    fs.rmSync(parserFolder, { recursive: true, force: true });
  });

  function workerChunker(options: { folder?: string; file?: string; idleMs?: number } = {}) {
    const problems: string[] = [];
    const chunker = new WorkerChunker(options.file ?? WORKER_FILE, options.folder ?? parserFolder, (problem) => problems.push(problem), options.idleMs);
    chunkers.push(chunker);
    return { chunker, problems };
  }

  it('cuts as the parser does in process, files sent at once answered each with its own chunks', async () => {
    const { chunker, problems } = workerChunker();
    const cut = await Promise.all(SOURCES.map((file) => chunker.chunk(file.text, file.path, { maxChars: 900 })));
    for (const [i, file] of SOURCES.entries()) assert.deepEqual(cut[i], await inProcess.chunk(file.text, file.path, { maxChars: 900 }), file.path);
    assert.ok(
      cut[0].some((chunk) => chunk.context !== undefined) || cut[2].some((chunk) => chunk.context !== undefined),
      'some chunk has its enclosing signature',
    );
    assert.deepEqual(problems, []);
  });

  it('ends its thread once idle, which gives its memory back, and starts another for the next file', async () => {
    const { chunker } = workerChunker({ idleMs: 50 });
    await chunker.chunk(SOURCES[0].text, SOURCES[0].path);
    assert.ok(chunker.running);
    const deadline = Date.now() + 5_000;
    while (chunker.running && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(chunker.running, false);
    assert.deepEqual(await chunker.chunk(SOURCES[1].text, SOURCES[1].path), await inProcess.chunk(SOURCES[1].text, SOURCES[1].path));
    assert.equal(chunker.started, 2);
  });

  it('cuts by lines, and says why, when the parser is not where it should be', async () => {
    const { chunker, problems } = workerChunker({ folder: path.join(parserFolder, 'missing') });
    const file = SOURCES[2];
    assert.deepEqual(await chunker.chunk(file.text, file.path), chunkText(file.text));
    assert.match(problems.join('\n'), /syntax parser did not load/);
  });

  it('cuts by lines the files of a thread that died, says so, and starts a new one', async () => {
    const dying = path.join(parserFolder, 'dying.js');
    fs.writeFileSync(dying, "require('node:worker_threads').parentPort.on('message', () => process.exit(3));");
    const { chunker, problems } = workerChunker({ file: dying });
    const file = SOURCES[2];
    assert.deepEqual(await chunker.chunk(file.text, file.path), chunkText(file.text));
    assert.match(problems.join('\n'), /thread stopped \(it exited with code 3\)/);
    assert.equal(chunker.running, false);
    await chunker.chunk(file.text, file.path);
    assert.equal(chunker.started, 2);
  });
});
