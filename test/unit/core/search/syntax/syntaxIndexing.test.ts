import * as assert from 'node:assert/strict';
import { repoRoot } from '../../../support/repoRoot';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chunkText, embeddingText } from '../../../../../src/core/search/syntax/chunker';
import { EmbeddingCache } from '../../../../../src/core/search/cache/embeddingCache';
import { WorkspaceIndexer } from '../../../../../src/core/search/indexer';
import { SyntaxChunker, type SourceChunker } from '../../../../../src/core/search/syntax/syntaxChunker';
import { WorkerChunker } from '../../../../../src/core/search/syntax/workerChunker';
import { useEmulator } from '../../../support/fixture';
import { writeParserFolder } from '../../../support/parserFolder';

/** A class whose one long method does not fit a chunk of 500 characters, so it is split among its statements. */
function uploaderSource(): string {
  const stages = Array.from(
    { length: 12 },
    (_, i) =>
      `    if (request.step === ${i}) {\n      const reply = await send(request, 'stage-${i}');\n      log.info(\`stage ${i}: \${reply.status}\`);\n    }`,
  );
  return ['export class Uploader {', '  async uploadInStages(request: UploadRequest, log: Logger): Promise<void> {', ...stages, '  }', '}', ''].join('\n');
}

/** The parsing thread as the test build writes it (esbuild.js). */
const WORKER_FILE = path.join(repoRoot, 'out/src/core/search/syntax/chunkWorker.js');

/**
 * A function whose body nests 10,000 blocks, one a line (40 KB): generated code can look like this.
 * Deeper than the 5,000 that overflowed the extension host's stack: the parsing thread has more.
 */
function deeplyNested(): string {
  const opens = Array.from({ length: 10_000 }, () => '{');
  return ['export function deep(): void {', ...opens, 'deepest();', ...opens.map(() => '}'), '}', ''].join('\n');
}

describe('indexing with syntax chunks, against the emulator', function () {
  this.timeout(10_000);
  const t = useEmulator();
  let dir: string;
  let chunker: SyntaxChunker;

  let parserFolder: string;

  before(async () => {
    parserFolder = writeParserFolder();
    chunker = await SyntaxChunker.load(parserFolder);
  });
  after(() => {
    chunker.dispose();
    fs.rmSync(parserFolder, { recursive: true, force: true });
  });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syntax-index-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('embeds each piece with its enclosing signatures, and cites only the file’s own lines', async () => {
    const client = t.clientWith();
    const indexer = new WorkspaceIndexer({
      embed: (texts, signal) => client.embeddings(texts, { signal }),
      cache: await EmbeddingCache.load(dir, 'Embeddings'),
      chunkOptions: { maxChars: 500 },
      chunker,
    });
    const file = { path: 'file:///w/src/uploader.ts', text: uploaderSource() };
    const result = await indexer.indexFiles([file]);
    const chunks = await indexer.chunksOf(file);
    assert.equal(result.chunks, chunks.length);
    assert.ok(chunks.length >= 3);

    // What was sent is each piece under the class line and the method signature; the first piece holds them itself.
    const sent = t.emulator.requests
      .filter((request) => request.endpoint === 'embeddings')
      .flatMap((request) => (JSON.parse(request.body) as { input: string[] }).input);
    assert.deepEqual(sent.sort(), chunks.map((chunk) => embeddingText(chunk)).sort());
    const signature = 'export class Uploader {\n  async uploadInStages(request: UploadRequest, log: Logger): Promise<void> {';
    assert.ok(sent.filter((text) => text.startsWith(signature)).length === chunks.length);

    // The index keeps the lines of the file, not those of the repeated signature.
    const lines = file.text.split('\n');
    const record = indexer.file(file.path)!;
    assert.deepEqual(
      record.chunks.map((chunk) => [chunk.startLine, chunk.endLine]),
      chunks.map((chunk) => [chunk.startLine, chunk.endLine]),
    );
    const [query] = await client.embeddings(["send request 'stage-9' and log its status"]);
    const [hit] = indexer.search(query, 1);
    const cited = lines.slice(hit.startLine, hit.endLine + 1).join('\n');
    assert.ok(cited.includes("'stage-9'"), `the hit cites lines ${hit.startLine}-${hit.endLine}`);
    assert.ok(!cited.includes('export class Uploader'));
  });

  /** The files of a folder with a deeply nested one among ordinary ones, as indexing reads them. */
  function folderWithDeepFile(): { path: string; text: string }[] {
    const folder = path.join(dir, 'workspace');
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, 'uploader.ts'), uploaderSource());
    fs.writeFileSync(path.join(folder, 'generated.ts'), deeplyNested());
    fs.writeFileSync(path.join(folder, 'notes.md'), '# Notes\n\nThe uploader sends each stage in turn.\n');
    return fs.readdirSync(folder).map((name) => ({ path: `file://${path.join(folder, name)}`, text: fs.readFileSync(path.join(folder, name), 'utf8') }));
  }

  it('indexes a folder holding a file of 10,000 nested blocks, that file along its syntax, in the parsing thread', async () => {
    const client = t.clientWith();
    const worker = new WorkerChunker(WORKER_FILE, parserFolder);
    try {
      const failed: string[] = [];
      const indexer = new WorkspaceIndexer({
        embed: (texts, signal) => client.embeddings(texts, { signal }),
        cache: await EmbeddingCache.load(dir, 'Embeddings'),
        chunker: worker,
        onChunkingFailed: (file) => failed.push(file),
      });
      const files = folderWithDeepFile();
      const result = await indexer.indexFiles(files);
      assert.equal(result.files, 3);
      assert.deepEqual(failed, []);
      const deep = files.find((file) => file.path.endsWith('generated.ts'))!;
      assert.notDeepEqual(await indexer.chunksOf(deep), chunkText(deep.text), 'the nested file was cut by lines');
      for (const file of files) assert.ok(indexer.file(file.path)?.chunks.length, `${file.path} is not indexed`);
    } finally {
      worker.dispose();
    }
  });

  it('cuts by lines a file the chunker fails on, says which once, and indexes the others along their syntax', async () => {
    const client = t.clientWith();
    const failing: SourceChunker = {
      chunk: (text, file, options) =>
        file.endsWith('generated.ts') ? Promise.reject(new RangeError('Maximum call stack size exceeded')) : chunker.chunk(text, file, options),
    };
    const failed: string[] = [];
    const indexer = new WorkspaceIndexer({
      embed: (texts, signal) => client.embeddings(texts, { signal }),
      cache: await EmbeddingCache.load(dir, 'Embeddings'),
      chunker: failing,
      onChunkingFailed: (file, error) => failed.push(`${file}: ${(error as Error).message}`),
    });
    const files = folderWithDeepFile();
    const result = await indexer.indexFiles(files);
    assert.equal(result.files, 3);
    const deep = files.find((file) => file.path.endsWith('generated.ts'))!;
    assert.deepEqual(failed, [`${deep.path}: Maximum call stack size exceeded`]);
    const byLines = chunkText(deep.text);
    assert.deepEqual(
      indexer.file(deep.path)!.chunks.map((chunk) => [chunk.startLine, chunk.endLine]),
      byLines.map((chunk) => [chunk.startLine, chunk.endLine]),
    );
    const uploader = files.find((file) => file.path.endsWith('uploader.ts'))!;
    assert.equal(indexer.file(uploader.path)!.chunks.length, (await chunker.chunk(uploader.text, uploader.path)).length);
    const [query] = await client.embeddings(['deepest();']);
    assert.ok(
      indexer.search(query, 3).some((hit) => hit.path === deep.path),
      'the file cut by lines is not found',
    );
  });
});
