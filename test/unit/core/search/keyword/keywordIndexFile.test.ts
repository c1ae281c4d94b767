import * as assert from 'node:assert/strict';
import { repoRoot } from '../../../support/repoRoot';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ChunkKeywords } from '../../../../../src/core/search/keyword/chunkKeywords';
import { KeywordIndex } from '../../../../../src/core/search/keyword/keywordIndex';
import { KEYWORDS_FILE, loadKeywords, saveKeywords } from '../../../../../src/core/search/keyword/keywordIndexFile';

/** Real chunks: this project's sources, cut every 20 lines; a chunk's key is its text, as a cache key stands for it. */
function realFiles(): { path: string; texts: string[] }[] {
  const files = [
    'src/core/search/chunkStore.ts',
    'src/core/search/keyword/keywordIndex.ts',
    'src/core/search/keyword/wordTable.ts',
    'src/core/search/keyword/postingLists.ts',
    'README.md',
  ];
  return files.map((file) => {
    const lines = fs.readFileSync(path.resolve(repoRoot, file), 'utf8').split('\n');
    const texts: string[] = [];
    for (let at = 0; at < lines.length; at += 20) texts.push(lines.slice(at, at + 20).join('\n'));
    return { path: file, texts };
  });
}

interface Chunk {
  doc: number;
  key: string;
  name: string;
}
interface File {
  path: string;
  pathDoc: number;
  chunks: Chunk[];
}

function recordOf(file: { path: string; texts: string[] }): File {
  return { path: file.path, pathDoc: -1, chunks: file.texts.map((text, i) => ({ doc: -1, key: text, name: `${file.path}#${i}` })) };
}

const QUERIES = ['compact postings', 'WordTable renumber', 'chunkStore.ts', 'hybrid search exact matches', 'keyword index BM25 score', 'ghost'];

/** What a search finds for each query: every ranked chunk, and whether it is exact, by name. */
function resultsOf(keywords: ChunkKeywords<Chunk, File>): string[][] {
  return QUERIES.map((query) =>
    keywords
      .rank(query, 1000)
      .map(({ chunk, exact }) => `${chunk.name}${exact ? ' exact' : ''}`)
      .sort(),
  );
}

describe('keyword index file: a reopened index is read, not rebuilt from the texts', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keywords-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function saved(keywords: ChunkKeywords<Chunk, File>, stamp = 'model'): Promise<void> {
    const { snapshot, files } = keywords.toSave();
    await saveKeywords(dir, stamp, snapshot, files);
  }

  it('a restored index scores every document as the saved one did', () => {
    const index = new KeywordIndex();
    const texts = realFiles().flatMap((file) => file.texts);
    const docs = texts.map((text) => index.add(text.toLowerCase().split(/\W+/)));
    for (const doc of docs.filter((_, i) => i % 3 === 0)) index.remove(doc);
    const restored = KeywordIndex.restore(index.snapshot());
    for (const words of [['compact'], ['index', 'word'], ['the', 'nothing']]) {
      const [a, b] = [index.search(words), restored.search(words)];
      assert.deepEqual([...b.docs].sort(), [...a.docs].sort());
      assert.deepEqual(b.scores, a.scores);
    }
    assert.equal(restored.size, index.size);
    // A freed id is given again, and the word table goes on growing.
    const doc = restored.add(['brandnewword', 'compact']);
    assert.equal(restored.search(['brandnewword']).docs[0], doc);
  });

  it('after adds, removes and a reopen, search finds what a rebuilt index finds', async () => {
    const [a, b, c, d, e] = realFiles();
    const first = new ChunkKeywords<Chunk, File>();
    for (const file of [a, b, c]) first.addFile(recordOf(file), file.texts);
    const removed = recordOf(d);
    first.addFile(removed, d.texts);
    first.removeFile(removed);
    first.addFile(recordOf(e), e.texts);
    await saved(first);

    const loaded = await loadKeywords(dir, 'model');
    assert.ok(loaded, 'the saved index loads');
    const reopened = new ChunkKeywords<Chunk, File>(loaded);
    // b is gone from the workspace since; its saved documents stay out of results until forgotten.
    for (const file of [e, a, c]) reopened.addFile(recordOf(file), ['ignored: unchanged chunks are not split again']);
    assert.ok(
      resultsOf(reopened)
        .flat()
        .every((name) => !name.startsWith(b.path)),
    );
    reopened.forgetSaved();

    const rebuilt = new ChunkKeywords<Chunk, File>();
    for (const file of [a, c, e]) rebuilt.addFile(recordOf(file), file.texts);
    assert.deepEqual(resultsOf(reopened), resultsOf(rebuilt));
    assert.ok(resultsOf(rebuilt).flat().length > 20, 'the queries find chunks');

    // Saved again and reopened once more: still the same.
    await saved(reopened);
    const again = new ChunkKeywords<Chunk, File>(await loadKeywords(dir, 'model'));
    for (const file of [a, c, e]) again.addFile(recordOf(file), []);
    again.forgetSaved();
    assert.deepEqual(resultsOf(again), resultsOf(rebuilt));
  });

  it('a file changed since is split again only for its changed chunks', async () => {
    const [a, b] = realFiles();
    const first = new ChunkKeywords<Chunk, File>();
    const before = recordOf(a);
    first.addFile(before, a.texts);
    first.addFile(recordOf(b), b.texts);
    await saved(first);

    const changed = { path: a.path, texts: [...a.texts] };
    changed.texts[1] = 'function zebraQuokka() { return 1; }';
    const reopened = new ChunkKeywords<Chunk, File>(await loadKeywords(dir, 'model'));
    const record = recordOf(changed);
    // Only the changed chunk's text is read: the others' texts are not given.
    reopened.addFile(
      record,
      changed.texts.map((text, i) => (i === 1 ? text : '')),
    );
    reopened.addFile(recordOf(b), []);
    reopened.forgetSaved();
    assert.deepEqual(
      record.chunks.filter((_, i) => i !== 1).map((chunk) => chunk.doc),
      before.chunks.filter((_, i) => i !== 1).map((chunk) => chunk.doc),
    );
    assert.deepEqual(
      reopened.rank('zebraQuokka', 5).map(({ chunk }) => chunk.name),
      [`${a.path}#1`],
    );
    const rebuilt = new ChunkKeywords<Chunk, File>();
    rebuilt.addFile(recordOf(changed), changed.texts);
    rebuilt.addFile(recordOf(b), b.texts);
    assert.deepEqual(resultsOf(reopened), resultsOf(rebuilt));
  });

  it('a missing, truncated, corrupt or other-model file is no index (the caller rebuilds)', async () => {
    assert.equal(await loadKeywords(dir, 'model'), undefined);
    const [a] = realFiles();
    const keywords = new ChunkKeywords<Chunk, File>();
    keywords.addFile(recordOf(a), a.texts);
    await saved(keywords);
    assert.ok(await loadKeywords(dir, 'model'));
    assert.equal(await loadKeywords(dir, 'other-model'), undefined);

    const file = path.join(dir, KEYWORDS_FILE);
    const bytes = fs.readFileSync(file);
    for (const cut of [0, 3, 10, bytes.length - 1]) {
      fs.writeFileSync(file, bytes.subarray(0, cut));
      assert.equal(await loadKeywords(dir, 'model'), undefined, `cut at ${cut}`);
    }
    // A header whose chunks name documents the index does not hold.
    const length = bytes.readUInt32LE(0);
    const header = JSON.parse(bytes.toString('utf8', 4, 4 + length)) as { files: Record<string, [string[], number[]]> };
    header.files[a.path][1][0] = 1e6;
    const json = Buffer.from(JSON.stringify(header).padEnd(length, ' '));
    fs.writeFileSync(file, Buffer.concat([bytes.subarray(0, 4), json.subarray(0, length), bytes.subarray(4 + length)]));
    assert.equal(await loadKeywords(dir, 'model'), undefined);
    fs.writeFileSync(file, 'not an index');
    assert.equal(await loadKeywords(dir, 'model'), undefined);
    // No temporary file is left beside it.
    assert.deepEqual(fs.readdirSync(dir), [KEYWORDS_FILE]);
  });
});
