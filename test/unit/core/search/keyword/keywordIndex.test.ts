import * as assert from 'node:assert/strict';
import { queryWords, searchWords } from '../../../../../src/core/search/keyword/identifierWords';
import { KeywordIndex } from '../../../../../src/core/search/keyword/keywordIndex';
import { forEachPosting, packPostings } from '../../../../../src/core/search/keyword/postingLists';
import { fuseRankings, RRF_K } from '../../../../../src/core/search/rankFusion';
import { WordTable } from '../../../../../src/core/search/keyword/wordTable';
import { seededRandom } from '../../../support/random';

/** BM25 computed the plain way over the documents held (k1 1.2, b 0.75): the reference. */
function bm25(docs: ReadonlyMap<number, readonly string[]>, query: readonly string[]): Map<number, number> {
  const n = docs.size;
  const average = [...docs.values()].reduce((sum, words) => sum + words.length, 0) / n;
  const scores = new Map<number, number>();
  for (const word of new Set(query)) {
    const holders = [...docs].filter(([, words]) => words.includes(word));
    const idf = Math.log(1 + (n - holders.length + 0.5) / (holders.length + 0.5));
    for (const [doc, words] of holders) {
      const tf = words.filter((w) => w === word).length;
      const norm = 1.2 * (1 - 0.75 + (0.75 * words.length) / average);
      scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * 2.2) / (tf + norm));
    }
  }
  return scores;
}

function scoresOf(index: KeywordIndex, query: readonly string[]): Map<number, number> {
  const { docs, scores } = index.search(query);
  return new Map(docs.map((doc) => [doc, scores[doc]]));
}

describe('identifier words: what the keyword index matches on', () => {
  it('splits camelCase, PascalCase, snake_case, SCREAMING_CASE and acronyms, keeping the whole identifier', () => {
    assert.deepEqual(searchWords('refreshAccessToken'), ['refreshaccesstoken', 'refresh', 'access', 'token']);
    assert.deepEqual(searchWords('MAX_RETRY_COUNT'), ['max_retry_count', 'max', 'retry', 'count']);
    assert.deepEqual(searchWords('HTTPServer2 parse_url'), ['httpserver2', 'http', 'server', 'parse_url', 'parse', 'url']);
    assert.deepEqual(searchWords('__proto__ $scope'), ['proto', 'scope']);
  });

  it('keeps kebab-case names whole, and dotted file names only in paths and queries', () => {
    assert.deepEqual(searchWords('stream-tracker'), ['stream', 'tracker', 'stream-tracker']);
    assert.deepEqual(searchWords('this.store.get(x)'), ['this', 'store', 'get']);
    assert.deepEqual(searchWords('file:///w/src/core/search/chunker.ts', true), ['file', 'src', 'core', 'search', 'chunker', 'ts', 'chunker.ts']);
  });

  it("tells a query's names (identifiers of several parts, file names) from its plain words", () => {
    assert.deepEqual(queryWords('where is retryAfterDelay set in backoff.ts?').names, ['retryafterdelay', 'backoff.ts']);
    assert.deepEqual(queryWords('Where is the Token refreshed').names, []);
  });

  it('case-folds words in any script and leaves out single characters and long runs', () => {
    assert.deepEqual(searchWords('Токен ОБНОВЛЯЕТСЯ здесь, a = b'), ['токен', 'обновляется', 'здесь']);
    assert.deepEqual(searchWords(`sha ${'f'.repeat(64)} end`), ['sha', 'end']);
  });
});

describe('keyword index: BM25 kept up to date one document at a time', () => {
  it('scores exactly as BM25 over the documents held, through adds, removals and compactions', () => {
    const random = seededRandom(32);
    const vocabulary = Array.from({ length: 60 }, (_, i) => `w${i}`);
    const index = new KeywordIndex();
    const held = new Map<number, string[]>();
    for (let step = 0; step < 3000; step++) {
      if (held.size > 0 && random() < 0.35) {
        const docs = [...held.keys()];
        const doc = docs[Math.floor(random() * docs.length)];
        assert.equal(index.remove(doc), true);
        held.delete(doc);
      } else {
        // Zipf-like: low word numbers are common, high ones rare.
        const words = Array.from({ length: 1 + Math.floor(random() * 30) }, () => vocabulary[Math.floor(vocabulary.length * random() ** 2)]);
        const doc = index.add(words);
        assert.equal(held.has(doc), false, 'an id in use is not given again');
        held.set(doc, words);
      }
      if (step % 97 === 0) {
        const query = [vocabulary[Math.floor(random() * 60)], vocabulary[Math.floor(random() * 60)], 'absent'];
        const expected = bm25(held, query);
        const actual = scoresOf(index, query);
        assert.deepEqual([...actual.keys()].sort(), [...expected.keys()].sort(), `step ${step}: the documents that match`);
        for (const [doc, score] of expected) assert.ok(Math.abs(actual.get(doc)! - score) < 1e-9, `step ${step}: doc ${doc}`);
      }
    }
    assert.equal(index.size, held.size);
  });

  it('finds a document by the parts of its identifiers, and no longer once it is removed', () => {
    const index = new KeywordIndex();
    const target = index.add(searchWords('const delay = retryAfterDelay(response.headers);'));
    index.add(searchWords('function parseHeaders(raw) { return raw.split(CRLF); }'));
    assert.deepEqual(index.search(searchWords('retry after', true)).docs, [target]);
    assert.equal(index.remove(target), true);
    assert.equal(index.remove(target), false, 'a second removal finds nothing');
    assert.deepEqual(index.search(searchWords('retry after', true)).docs, []);
    assert.equal(index.remove(-1), false);
    assert.equal(index.remove(99), false);
  });

  it('tells which of the query words each match holds, numbering them alike in any index', () => {
    const index = new KeywordIndex();
    const both = index.add(['token', 'refresh']);
    const one = index.add(['token']);
    const { words, allWords } = index.search(['unknown', 'token', 'refresh']);
    assert.equal(allWords, 0b110, 'the unknown word keeps its place (bit 0) but is not required');
    assert.equal(words[both], 0b110);
    assert.equal(words[one], 0b010);
  });

  it('keeps postings in typed arrays, a few bytes each, and drops a removed word at compaction', () => {
    const index = new KeywordIndex();
    const docs = Array.from({ length: 2000 }, (_, i) => index.add([`word${i % 500}`, `name${i}`, 'common']));
    index.search(['common']);
    // 3 postings a document (4 bytes each), a length and a state; the start of each word's run, and its hashes.
    assert.ok(index.allocatedBytes < 2000 * (3 * 4 + 4 + 1) + 2501 * (4 + 12 / 0.35) + 64 * 1024, `${index.allocatedBytes} bytes`);
    for (const doc of docs) index.remove(doc);
    index.add(['fresh']);
    index.search(['fresh']);
    assert.deepEqual(index.search(['common', 'name7']).docs, []);
    assert.equal(index.size, 1);
  });
});

describe('posting lists: packed into bytes', () => {
  it('gives back every (document, count) of each word in document order, gaps and counts of any size', () => {
    const random = seededRandom(7);
    const lists: [number, number][][] = [[], [[0, 1]], [[2 ** 24 - 1, 255]], []];
    for (let w = 0; w < 40; w++) {
      const docs = new Set(Array.from({ length: Math.floor(random() * 300) }, () => Math.floor(random() * (w % 2 ? 2 ** 24 : 5000))));
      lists.push([...docs].map((doc) => [doc, 1 + Math.floor(random() ** 4 * 255)]));
    }
    const runs = new Uint32Array(lists.length + 1);
    lists.forEach((list, w) => (runs[w + 1] = runs[w] + list.length));
    // Each word's postings shuffled: packing sorts them.
    const postings = Uint32Array.from(lists.flatMap((list) => [...list].reverse().map(([doc, count]) => doc * 256 + count)));
    const packed = packPostings(postings, runs);
    lists.forEach((list, w) => {
      const read: [number, number][] = [];
      forEachPosting(packed, w, (doc, count) => read.push([doc, count]));
      assert.deepEqual(
        read,
        [...list].sort((a, b) => a[0] - b[0]),
        `word ${w}`,
      );
    });
    const total = lists.reduce((sum, list) => sum + list.length, 0);
    assert.ok(packed.bytes.length < total * 4, `${packed.bytes.length} bytes for ${total} postings`);
  });
});

describe('word table: word → id by two hashes', () => {
  it('gives each of many words its own id through growth, and keeps only the renumbered ones', () => {
    const table = new WordTable();
    const words = Array.from({ length: 50_000 }, (_, i) => (i % 3 === 0 ? `слово${i}` : `word${i.toString(36)}`));
    let next = 0;
    const ids = words.map((word) => table.getOrAdd(word, () => next++));
    assert.equal(next, words.length, 'no two words were taken for one');
    assert.deepEqual(
      words.map((word) => table.get(word)),
      ids,
    );
    assert.equal(table.get('absent'), undefined);
    table.renumber((id) => (id % 2 === 0 ? id / 2 : -1));
    assert.equal(table.get(words[4]), 2);
    assert.equal(table.get(words[5]), undefined);
    assert.ok(table.allocatedBytes <= (12 * 25_000) / 0.35, `${table.allocatedBytes} bytes`);
  });
});

describe('reciprocal rank fusion', () => {
  it('sums 1 / (k + rank) over the rankings, so an item both rank well comes first', () => {
    const fused = fuseRankings([
      ['a', 'b', 'c'],
      ['b', 'd'],
    ]);
    assert.deepEqual(
      fused.map(({ item }) => item),
      ['b', 'a', 'd', 'c'],
    );
    assert.equal(fused[0].score, 1 / (RRF_K + 2) + 1 / (RRF_K + 1));
    assert.equal(fused[3].score, 1 / (RRF_K + 3));
  });

  it('breaks ties by the better rank, then by the earlier ranking', () => {
    assert.deepEqual(
      fuseRankings([['x', 'y'], ['z']]).map(({ item }) => item),
      ['x', 'z', 'y'],
    );
    assert.deepEqual(fuseRankings([[], []]), []);
    assert.deepEqual(
      fuseRankings([['only']], 1).map(({ score }) => score),
      [0.5],
    );
  });
});
