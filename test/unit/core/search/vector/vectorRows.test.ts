import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EmbeddingCache } from '../../../../../src/core/search/cache/embeddingCache';
import { VectorIndex, type VectorMatch } from '../../../../../src/core/search/vector/vectorIndex';
import { RowArena } from '../../../../../src/core/search/vector/vectorRowArena';
import { type Random, seededRandom } from '../../../../emulator/random';

/**
 * The index keeps only the rounded halves of vectors saved to the cache's file and reads their
 * float32 rows back for exact scores: results must be those of a float32 brute force (the same
 * ids, scores within 1e-6), before and after adds and removes, and a file replaced behind its back
 * must not break a search.
 */
const DIMS = 96;
const MODEL = 'Embeddings';

function randomVector(random: Random): Float32Array {
  return Float32Array.from({ length: DIMS }, () => random() * 2 - 1);
}

/** Float32 brute force: every vector normalised in float32 as the index does, its dot product with the query in double, best first then by id. */
function bruteForce(vectors: Map<string, Float32Array>, query: Float32Array, k: number): VectorMatch[] {
  const unit = (v: Float32Array) => {
    const norm = Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
    return v.map((x) => x / norm);
  };
  const q = unit(query);
  const all = [...vectors].map(([id, vector]) => {
    const u = unit(vector);
    let dot = 0;
    for (let i = 0; i < DIMS; i++) dot += u[i] * q[i];
    return { id, score: dot };
  });
  all.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  return all.slice(0, k);
}

function assertExact(actual: VectorMatch[], expected: VectorMatch[], label: string): void {
  assert.deepEqual(
    actual.map((m) => m.id),
    expected.map((m) => m.id),
    `${label}: ids`,
  );
  actual.forEach((m, rank) =>
    assert.ok(Math.abs(m.score - expected[rank].score) <= 1e-6, `${label}: rank ${rank} scores ${m.score}, brute force ${expected[rank].score}`),
  );
}

describe('VectorIndex: exact scores from the float32 rows in the cache file', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vector-rows-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A cache of `n` random vectors saved to `dir`, and the vectors by key. */
  async function savedCache(random: Random, n: number): Promise<Map<string, Float32Array>> {
    const cache = await EmbeddingCache.load(dir, MODEL);
    const vectors = new Map<string, Float32Array>();
    for (let i = 0; i < n; i++) {
      const key = cache.keyFor(`chunk ${i}`);
      const vector = randomVector(random);
      cache.set(key, vector);
      vectors.set(key, vector);
    }
    assert.equal(cache.rowsInMemory, n, 'vectors not saved yet are held whole in memory');
    await cache.save();
    assert.equal(cache.rowsInMemory, 0, 'once saved, the rows are read back from the file');
    return vectors;
  }

  it('a reloaded cache holds no float32 row in memory and searches exactly like float32 brute force', async () => {
    const random = seededRandom(7);
    const vectors = await savedCache(random, 3000);
    const cache = await EmbeddingCache.load(dir, MODEL);
    assert.equal(cache.rowsInMemory, 0);
    for (let q = 0; q < 20; q++) {
      const query = randomVector(random);
      assertExact(cache.search(query, 10), bruteForce(vectors, query, 10), `query ${q}`);
    }
    // Near-ties the rounded first pass cannot order: copies of one vector nudged in its last bits.
    const base = randomVector(random);
    const near = await EmbeddingCache.load(dir, MODEL);
    for (let i = 0; i < 30; i++) {
      const nudged = base.slice();
      nudged[i] = nudged[i] * (1 + 2 ** -20);
      const key = `near ${i}`;
      near.set(key, nudged);
      vectors.set(key, nudged);
    }
    await near.save();
    // Closer than float32 sums can rank the same way twice: the reference is the float32 index in memory.
    const reloaded = await EmbeddingCache.load(dir, MODEL);
    const inMemory = new VectorIndex(DIMS);
    for (const [key, vector] of vectors) inMemory.add(key, vector);
    assert.deepEqual(reloaded.search(base, 10), inMemory.search(base, 10), 'near-ties');
    assert.equal(reloaded.inexactReads, 0);
  });

  it('stays exact through adds, replaces and removes after a reload, saved or not, and reads every bit back', async () => {
    const random = seededRandom(11);
    const vectors = await savedCache(random, 500);
    const cache = await EmbeddingCache.load(dir, MODEL);
    const check = (label: string) => {
      for (let q = 0; q < 5; q++) {
        const query = randomVector(random);
        assertExact(cache.search(query, 10), bruteForce(vectors, query, 10), `${label}, query ${q}`);
      }
      for (const [key, vector] of [...vectors].slice(0, 50)) {
        const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
        assert.deepEqual(
          cache.get(key),
          vector.map((x) => x / norm),
          `${label}: ${key} read back`,
        );
      }
    };
    for (let i = 0; i < 100; i++) {
      const key = `new ${i}`;
      const vector = randomVector(random);
      cache.set(key, vector);
      vectors.set(key, vector);
    }
    const keys = [...vectors.keys()];
    const replaced = keys[3];
    vectors.set(replaced, randomVector(random));
    cache.set(replaced, vectors.get(replaced)!);
    const live = new Set(keys.filter((_, i) => i % 3 !== 0));
    cache.prune(live);
    for (const key of keys) if (!live.has(key)) vectors.delete(key);
    const unsaved = [...vectors.keys()].filter((key) => key.startsWith('new ') || key === replaced);
    assert.equal(cache.rowsInMemory, unsaved.length);
    check('before saving');
    await cache.save();
    assert.equal(cache.rowsInMemory, 0);
    check('after saving (rewritten)');
    const more = randomVector(random);
    cache.set('appended', more);
    vectors.set('appended', more);
    await cache.save();
    assert.equal(cache.rowsInMemory, 0);
    check('after an append');
    assert.equal(cache.inexactReads, 0);
  });

  it('stays exact through edits that leave dead rows, compactions and reopening, saved or not', async () => {
    const random = seededRandom(23);
    const vectors = await savedCache(random, 600);
    let cache = await EmbeddingCache.load(dir, MODEL);
    const check = (label: string) => {
      for (let q = 0; q < 4; q++) {
        const query = randomVector(random);
        assertExact(cache.search(query, 10), bruteForce(vectors, query, 10), `${label}, query ${q}`);
      }
    };
    const files = new Set<string>();
    let appendsWithDeadRows = 0;
    for (let round = 0; round < 12; round++) {
      // An edit: some vectors replaced, some removed (pruned), some added.
      const put = (key: string) => {
        const vector = randomVector(random);
        vectors.set(key, vector);
        cache.set(key, vector);
      };
      const keys = [...vectors.keys()];
      for (let i = 0; i < 50; i++) {
        const key = keys[Math.floor(random() * keys.length)];
        if (random() < 0.5) put(key);
        else vectors.delete(key);
      }
      for (let i = 0; i < 15; i++) put(`round ${round} added ${i}`);
      cache.prune(new Set(vectors.keys()));
      check(`round ${round}, not saved`);
      await cache.save();
      assert.equal(cache.rowsInMemory, 0);
      files.add(cache.vectorsFile!);
      if (cache.deadRows > 0) appendsWithDeadRows++;
      check(`round ${round}, saved`);
      if (round % 3 === 2) {
        cache = await EmbeddingCache.load(dir, MODEL);
        assert.equal(cache.size, vectors.size);
        check(`round ${round}, reopened`);
      }
    }
    assert.ok(appendsWithDeadRows > 0, 'some saves only appended, leaving dead rows');
    assert.ok(files.size > 1, 'some saves compacted into a new file');
    assert.equal(cache.inexactReads, 0);
  });

  it('a vectors file replaced or deleted behind its back: searches go on, from the rounded halves, and say so', async () => {
    const random = seededRandom(13);
    const vectors = await savedCache(random, 400);
    const cache = await EmbeddingCache.load(dir, MODEL);
    const query = randomVector(random);
    const exact = bruteForce(vectors, query, 10);
    // Another writer's file in its place: other vectors in the same rows.
    const other = Buffer.alloc(400 * DIMS * 4);
    new Float32Array(other.buffer, other.byteOffset, 400 * DIMS).forEach((_, i, a) => (a[i] = random() * 0.1));
    fs.writeFileSync(cache.vectorsFile!, other);
    const replaced = cache.search(query, 10);
    assert.ok(cache.inexactReads > 0, 'the rows read back were seen not to be these vectors');
    assert.equal(replaced.length, 10);
    replaced.forEach((m, rank) => assert.ok(Math.abs(m.score - exact[rank].score) <= 2 ** -7, `rank ${rank}: ${m.score} is not near ${exact[rank].score}`));

    fs.rmSync(cache.vectorsFile!);
    const before = cache.inexactReads;
    assert.equal(cache.search(query, 10).length, 10);
    assert.ok(cache.inexactReads > before);
    assert.ok(cache.get([...vectors.keys()][0]), 'a read still gives the vector, as near as the halves know it');
  });

  it('an index without a file keeps its rows in memory, exact as ever', () => {
    const random = seededRandom(17);
    const index = new VectorIndex(DIMS);
    const vectors = new Map<string, Float32Array>();
    for (let i = 0; i < 300; i++) {
      const vector = randomVector(random);
      index.add(`v${i}`, vector);
      vectors.set(`v${i}`, vector);
    }
    assert.equal(index.rowsInMemory, 300);
    const query = randomVector(random);
    assertExact(index.search(query, 10), bruteForce(vectors, query, 10), 'in memory');
    index.remove('v0');
    assert.equal(index.rowsInMemory, 299);
  });

  it('rows kept in memory share blocks, which are reused and released when their last row goes', () => {
    const random = seededRandom(19);
    const arena = new RowArena(1024);
    const live = new Map<number, Float32Array>();
    const row = () => Float32Array.from({ length: 1024 }, () => random());
    for (let step = 0; step < 3000; step++) {
      if (live.size === 0 || random() < 0.6) {
        const values = row();
        const cell = arena.take(values);
        assert.ok(!live.has(cell), `cell ${cell} handed out twice`);
        live.set(cell, values);
      } else {
        const cells = [...live.keys()];
        const cell = cells[Math.floor(random() * cells.length)];
        arena.release(cell);
        live.delete(cell);
      }
    }
    for (const [cell, values] of live) assert.deepEqual(arena.row(cell), values, `cell ${cell}`);
    const rowsPerBlock = (4 * 65536) / (1024 * 4);
    assert.ok(arena.liveBlocks <= Math.ceil(live.size / rowsPerBlock) + 8, `${arena.liveBlocks} blocks for ${live.size} rows`);
    for (const cell of live.keys()) arena.release(cell);
    assert.equal(arena.liveBlocks, 0, 'every block is released once its rows are gone');
  });
});
