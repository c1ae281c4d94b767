import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { embeddingText } from '../../src/core/search/chunker';
import { EmbeddingCache } from '../../src/core/search/embeddingCache';
import { WorkspaceIndexer } from '../../src/core/search/indexer';
import { SyntaxChunker } from '../../src/core/search/syntax/syntaxChunker';
import { useEmulator } from './support/fixture';

/** A class whose one long method does not fit a chunk of 500 characters, so it is split among its statements. */
function uploaderSource(): string {
  const stages = Array.from(
    { length: 12 },
    (_, i) =>
      `    if (request.step === ${i}) {\n      const reply = await send(request, 'stage-${i}');\n      log.info(\`stage ${i}: \${reply.status}\`);\n    }`,
  );
  return ['export class Uploader {', '  async uploadInStages(request: UploadRequest, log: Logger): Promise<void> {', ...stages, '  }', '}', ''].join('\n');
}

describe('indexing with syntax chunks, against the emulator', function () {
  this.timeout(10_000);
  const t = useEmulator();
  let dir: string;
  let chunker: SyntaxChunker;

  let parserFolder: string;

  before(async () => {
    parserFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'tree-sitter-'));
    // The parser as the build writes it to dist/tree-sitter (esbuild.js).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    (require(path.resolve(__dirname, '../../..', 'esbuild.js')) as { writeTreeSitter: (folder: string, minify: boolean) => void }).writeTreeSitter(
      parserFolder,
      false,
    );
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
});
