import * as assert from 'node:assert/strict';
import { repoRoot } from '../../../support/repoRoot';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ChunkBoundaries, ReusingChunker } from '../../../../../src/core/search/syntax/chunkBoundaries';
import { chunkText, type ChunkOptions } from '../../../../../src/core/search/syntax/chunker';
import { EmbeddingCache } from '../../../../../src/core/search/cache/embeddingCache';
import { WorkspaceIndexer } from '../../../../../src/core/search/indexer';
import { SyntaxChunker } from '../../../../../src/core/search/syntax/syntaxChunker';
import { useEmulator } from '../../../support/fixture';
import { writeParserFolder } from '../../../support/parserFolder';

/** Real source files of this project's dependencies, TypeScript and JavaScript, read as a scan reads them. */
function realSources(): { path: string; text: string }[] {
  const files = [
    'node_modules/undici/lib/dispatcher/client-h1.js',
    'node_modules/undici/lib/core/util.js',
    'node_modules/undici/types/dispatcher.d.ts',
    'src/core/search/chunkStore.ts',
    'src/core/search/keyword/keywordIndex.ts',
    'README.md',
  ];
  return files.map((file) => ({ path: `file:///w/${file}`, text: fs.readFileSync(path.resolve(repoRoot, file), 'utf8') }));
}

describe('chunk boundaries: a rescan cuts unchanged files as before, without parsing', function () {
  this.timeout(20_000);
  const t = useEmulator();
  let parserFolder: string;
  let parser: SyntaxChunker;
  let dir: string;
  before(async () => {
    parserFolder = writeParserFolder();
    parser = await SyntaxChunker.load(parserFolder);
  });
  after(() => {
    parser.dispose();
    fs.rmSync(parserFolder, { recursive: true, force: true });
  });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chunk-boundaries-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function openIndexer(options: ChunkOptions = { maxChars: 800 }) {
    const client = t.clientWith();
    const cache = await EmbeddingCache.load(dir, 'Embeddings');
    return new WorkspaceIndexer({
      embed: (texts, signal) => client.embeddings(texts, { signal }),
      cache,
      chunkOptions: options,
      chunker: parser,
      boundaries: await ChunkBoundaries.load(dir, 'syntax-test', options),
    });
  }

  async function save(indexer: WorkspaceIndexer): Promise<void> {
    await indexer.cache.save();
    await indexer.boundaries!.save();
  }

  it('a window opened again parses no unchanged file, and indexes the same chunks', async () => {
    const files = realSources();
    const first = await openIndexer();
    await first.indexFiles(files);
    assert.equal(first.chunkedFiles.parsed, files.length);
    await save(first);

    const reopened = await openIndexer();
    t.emulator.resetCounts();
    const result = await reopened.indexFiles(files);
    assert.deepEqual(reopened.chunkedFiles, { reused: files.length, parsed: 0 });
    assert.equal(result.embeddedChunks, 0);
    for (const file of files) assert.deepEqual(reopened.file(file.path), first.file(file.path), file.path);
  });

  it('parses a file whose text changed, and only that one', async () => {
    const files = realSources();
    const first = await openIndexer();
    await first.indexFiles(files);
    await save(first);

    const edited = { path: files[0].path, text: `// An edit at the top moves every line.\n${files[0].text}` };
    const reopened = await openIndexer();
    await reopened.indexFiles([edited, ...files.slice(1)]);
    assert.deepEqual(reopened.chunkedFiles, { reused: files.length - 1, parsed: 1 });
    assert.deepEqual(
      reopened.file(edited.path)!.chunks.map((chunk) => chunk.startLine),
      (await parser.chunk(edited.text, edited.path, { maxChars: 800 })).map((chunk) => chunk.startLine),
    );
  });

  it('parses everything again when chunks are cut to another size', async () => {
    const files = realSources();
    const first = await openIndexer({ maxChars: 800 });
    await first.indexFiles(files);
    await save(first);
    const resized = await openIndexer({ maxChars: 1200 });
    await resized.indexFiles(files);
    assert.deepEqual(resized.chunkedFiles, { reused: 0, parsed: files.length });
  });

  it('forgets files no longer indexed, and starts anew from a broken file', async () => {
    const [kept, gone] = realSources();
    const first = await openIndexer();
    await first.indexFiles([kept, gone]);
    first.removeFile(gone.path);
    first.boundaries!.retain(first.paths());
    await save(first);
    assert.equal((await ChunkBoundaries.load(dir, 'syntax-test', { maxChars: 800 })).size, 1);

    fs.writeFileSync(path.join(dir, ChunkBoundaries.FILE), '{"format":1,"stamp":');
    const broken = await openIndexer();
    await broken.indexFiles([kept]);
    assert.deepEqual(broken.chunkedFiles, { reused: 0, parsed: 1 });
  });

  it('cuts every text exactly as recorded: lines split by CR, CRLF and LF, long lines cut in pieces', async () => {
    const boundaries = await ChunkBoundaries.load(dir, 'lines', { maxChars: 40 });
    const reusing = new ReusingChunker({ chunk: (text, _, options) => Promise.resolve(chunkText(text, options)) }, boundaries);
    const texts = ['a\r\nb\rc\n\n' + 'word '.repeat(30) + '\nend', 'x'.repeat(130), '  \n\t\n', 'é🙂'.repeat(40)];
    for (const [i, text] of texts.entries()) {
      const cut = await reusing.chunk(text, `file${i}`, { maxChars: 40 });
      assert.deepEqual(await reusing.chunk(text, `file${i}`, { maxChars: 40 }), cut);
    }
    assert.deepEqual(reusing.counts, { reused: texts.length, parsed: texts.length });
  });
});
