import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EmbeddingCache } from '../../../../src/core/search/cache/embeddingCache';
import { WorkspaceIndexer } from '../../../../src/core/search/indexer';
import { saveSearchIndex } from '../../../../src/core/search/indexSave';
import { KEYWORDS_FILE, loadKeywords } from '../../../../src/core/search/keyword/keywordIndexFile';
import { ChunkBoundaries } from '../../../../src/core/search/syntax/chunkBoundaries';

const MODEL = 'Embeddings';
const FILES = 12;

/** A unit vector of 8 dimensions that depends on the text only. */
function vectorOf(text: string): Float32Array {
  const vector = new Float32Array(8);
  for (let i = 0; i < text.length; i++) vector[i % 8] += text.charCodeAt(i);
  const norm = Math.hypot(...vector);
  return vector.map((x) => x / norm);
}

/** File `n` of the workspace: a few short paragraphs, one of them naming `word`. */
function fileText(n: number, word: string): string {
  return [`function first${n}() { return ${n}; }`, '', `// the ${word} of file ${n}`, `const value${n} = ${n * 7};`].join('\n');
}

describe('saving the search index: an edit writes its rows, not the keyword index and boundaries', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'index-save-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function openIndexer(): Promise<WorkspaceIndexer> {
    return new WorkspaceIndexer({
      embed: (texts) => Promise.resolve(texts.map(vectorOf)),
      cache: await EmbeddingCache.load(dir, MODEL),
      chunkOptions: { maxChars: 60 },
      boundaries: await ChunkBoundaries.load(dir, 'lines-test', { maxChars: 60 }),
      keywords: await loadKeywords(dir, MODEL),
    });
  }

  const workspace = (word: (n: number) => string) => Array.from({ length: FILES }, (_, n) => ({ path: `file:///w/f${n}.ts`, text: fileText(n, word(n)) }));
  const mtime = (name: string) => fs.statSync(path.join(dir, name)).mtimeMs;
  const paths = (indexer: WorkspaceIndexer, word: string) =>
    indexer
      .search(vectorOf(word), 3, word)
      .filter((hit) => hit.exact)
      .map((hit) => hit.path);

  it('writes the shortcuts after a scan, and an edit only once a quarter of the files changed', async () => {
    const first = await openIndexer();
    await first.indexFiles(workspace(() => 'lighthouse'));
    await saveSearchIndex(first, true, 'changed');
    const written = { keywords: mtime(KEYWORDS_FILE), boundaries: mtime(ChunkBoundaries.FILE) };
    assert.equal(first.shortcutLag, 0);

    await new Promise((resolve) => setTimeout(resolve, 20));
    for (const n of [0, 1]) {
      await first.updateFile(`file:///w/f${n}.ts`, fileText(n, 'harbour'));
      await saveSearchIndex(first, true, 'stale');
      assert.equal(first.cache.dirty, false, 'the edit’s rows are saved');
    }
    assert.deepEqual({ keywords: mtime(KEYWORDS_FILE), boundaries: mtime(ChunkBoundaries.FILE) }, written, 'two edits of twelve files rewrote the shortcuts');
    assert.equal(first.shortcutLag, 2);

    await first.updateFile('file:///w/f2.ts', fileText(2, 'harbour'));
    await saveSearchIndex(first, true, 'stale');
    assert.notEqual(mtime(KEYWORDS_FILE), written.keywords, 'a quarter of the files changed: the shortcuts are due');
    assert.equal(first.shortcutLag, 0);
  });

  it('a window opened after unsaved shortcuts parses only the edited file, and finds its new words, not its old ones', async () => {
    const first = await openIndexer();
    await first.indexFiles(workspace(() => 'lighthouse'));
    await saveSearchIndex(first, true, 'changed');
    await first.updateFile('file:///w/f3.ts', fileText(3, 'harbour'));
    await saveSearchIndex(first, true, 'stale');
    assert.equal(first.shortcutLag, 1, 'the shortcuts were not written');

    const reopened = await openIndexer();
    const result = await reopened.indexFiles(workspace((n) => (n === 3 ? 'harbour' : 'lighthouse')));
    reopened.keywords.forgetSaved();
    assert.deepEqual(reopened.chunkedFiles, { reused: FILES - 1, parsed: 1 });
    assert.equal(result.embeddedChunks, 0, 'the edit’s rows were saved');
    assert.deepEqual(paths(reopened, 'harbour'), ['file:///w/f3.ts']);
    assert.ok(!paths(reopened, 'lighthouse').includes('file:///w/f3.ts'));
  });

  it('the window closing writes what it parsed, so the next parses nothing', async () => {
    const first = await openIndexer();
    await first.indexFiles(workspace(() => 'lighthouse'));
    await saveSearchIndex(first, true, 'changed');
    await first.updateFile('file:///w/f5.ts', fileText(5, 'harbour'));
    first.removeFile('file:///w/f6.ts');
    await saveSearchIndex(first, true, 'stale');
    assert.equal(first.shortcutLag, 2);
    await saveSearchIndex(first, true, 'changed');
    assert.equal(first.shortcutLag, 0);

    const reopened = await openIndexer();
    await reopened.indexFiles(workspace((n) => (n === 5 ? 'harbour' : 'lighthouse')).filter((file) => file.path !== 'file:///w/f6.ts'));
    assert.deepEqual(reopened.chunkedFiles, { reused: FILES - 1, parsed: 0 });
    assert.deepEqual(paths(reopened, 'harbour'), ['file:///w/f5.ts']);
  });
});
