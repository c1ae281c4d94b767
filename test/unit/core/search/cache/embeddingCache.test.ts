import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { EmbeddingCache } from '../../../../../src/core/search/cache/embeddingCache';

const DIMS = 8;

function vectorOf(seed: number): Float32Array {
  return Float32Array.from({ length: DIMS }, (_, i) => Math.sin(seed * 31 + i) * 0.5 + seed / 1000);
}

/** What the cache keeps of `vectorOf(seed)`: its direction, as the search index normalises it. */
function unitOf(seed: number): Float32Array {
  const vector = vectorOf(seed);
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
  return vector.map((x) => x / norm);
}

function metaFile(dir: string): string {
  return path.join(dir, EmbeddingCache.META_FILE);
}

function metaOf(dir: string): Record<string, unknown> & { keys: string[]; vectors: string; journal: string } {
  return JSON.parse(fs.readFileSync(metaFile(dir), 'utf8')) as Record<string, unknown> & { keys: string[]; vectors: string; journal: string };
}

/** The vectors file the meta file names. */
function vectorsFile(dir: string): string {
  return path.join(dir, metaOf(dir).vectors);
}

/** Where versions 1 and 2 kept their rows. */
function legacyVectorsFile(dir: string): string {
  return path.join(dir, 'vectors.f32');
}

describe('EmbeddingCache', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedding-cache-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function filled(model: string, n: number): Promise<{ cache: EmbeddingCache; keys: string[] }> {
    const cache = await EmbeddingCache.load(dir, model);
    const keys = Array.from({ length: n }, (_, i) => cache.keyFor(`chunk ${i}`));
    keys.forEach((key, i) => cache.set(key, vectorOf(i)));
    return { cache, keys };
  }

  it('keys depend on the model and the text', () => {
    const key = EmbeddingCache.keyFor('Embeddings', 'hello');
    assert.match(key, /^[0-9a-f]{32}$/);
    assert.equal(EmbeddingCache.keyFor('Embeddings', 'hello'), key);
    assert.notEqual(EmbeddingCache.keyFor('EmbeddingsGigaR', 'hello'), key);
    assert.notEqual(EmbeddingCache.keyFor('Embeddings', 'hello '), key);
  });

  it('survives a restart: a fresh instance returns identical vectors (their directions), checked against the checksum', async () => {
    const first = await EmbeddingCache.load(dir, 'Embeddings');
    assert.equal(first.loadInfo.state, 'missing');
    assert.equal(first.dimensions, undefined);
    const { cache, keys } = await filled('Embeddings', 50);
    await cache.save();

    assert.equal(fs.statSync(vectorsFile(dir)).size, 50 * DIMS * 4);
    const meta = metaOf(dir);
    assert.match(meta.vectors, /^vectors-[0-9a-f]+\.f32$/);
    assert.match(meta.journal, /^journal-[0-9a-f]+\.log$/);
    assert.deepEqual(
      { ...meta, keys: undefined, crc32: undefined, vectors: undefined, journal: undefined },
      {
        version: 3,
        model: 'Embeddings',
        dimensions: DIMS,
        count: 50,
        endian: os.endianness(),
        keys: undefined,
        crc32: undefined,
        vectors: undefined,
        journal: undefined,
      },
    );
    assert.equal(meta.crc32, zlib.crc32(fs.readFileSync(vectorsFile(dir))));
    assert.deepEqual(meta.keys, keys);

    const again = await EmbeddingCache.load(dir, 'Embeddings');
    assert.deepEqual(again.loadInfo, { state: 'loaded' });
    assert.equal(again.size, 50);
    assert.equal(again.dimensions, DIMS);
    keys.forEach((key, i) => assert.deepEqual(again.get(key), unitOf(i)));
    assert.equal(again.has(again.keyFor('never stored')), false);
    assert.equal(again.dirty, false);
  });

  it('is the search index too: the keys closest to a query, among those accepted', async () => {
    const { cache, keys } = await filled('Embeddings', 20);
    const [best] = cache.search(vectorOf(7), 1);
    assert.deepEqual(best.id, keys[7]);
    assert.ok(Math.abs(best.score - 1) < 1e-6);
    const others = cache.search(vectorOf(7), 3, (key) => key !== keys[7]);
    assert.equal(others.length, 3);
    assert.ok(others.every((match) => match.id !== keys[7] && match.score < best.score));
  });

  it('reads a cache of format version 1 (vectors as sent, no checksum) and rewrites it as version 3 on the next save', async () => {
    const keys = ['a', 'b', 'c'].map((text) => EmbeddingCache.keyFor('Embeddings', text));
    fs.writeFileSync(legacyVectorsFile(dir), Buffer.concat(keys.map((_, i) => Buffer.from(vectorOf(i).buffer))));
    fs.writeFileSync(metaFile(dir), JSON.stringify({ version: 1, model: 'Embeddings', dimensions: DIMS, count: 3, endian: os.endianness(), keys }));

    const old = await EmbeddingCache.load(dir, 'Embeddings');
    assert.deepEqual(old.loadInfo, { state: 'loaded', olderFormat: 1 });
    keys.forEach((key, i) => assert.deepEqual(old.get(key), unitOf(i)));
    assert.equal(old.dirty, true);
    assert.equal(old.rowsInMemory, 3, 'rows of the older format are not the unit vectors kept: held in memory until rewritten');
    await old.save();
    assert.equal(old.rowsInMemory, 0, 'once rewritten, they are read back from the file');
    assert.equal(metaOf(dir).version, 3);
    const upgraded = await EmbeddingCache.load(dir, 'Embeddings');
    assert.deepEqual(upgraded.loadInfo, { state: 'loaded' });
    keys.forEach((key, i) => assert.deepEqual(upgraded.get(key), unitOf(i)));
    assert.equal(fs.existsSync(legacyVectorsFile(dir)), false, 'the old file is gone');
  });

  it('reads a cache of format version 2 (unit rows and a checksum, no journal) and compacts it into version 3 on the next save', async () => {
    const keys = ['a', 'b', 'c'].map((text) => EmbeddingCache.keyFor('Embeddings', text));
    const rows = Buffer.concat(keys.map((_, i) => Buffer.from(unitOf(i).buffer)));
    fs.writeFileSync(legacyVectorsFile(dir), rows);
    fs.writeFileSync(
      metaFile(dir),
      JSON.stringify({ version: 2, model: 'Embeddings', dimensions: DIMS, count: 3, endian: os.endianness(), keys, crc32: zlib.crc32(rows) }),
    );

    const old = await EmbeddingCache.load(dir, 'Embeddings');
    assert.deepEqual(old.loadInfo, { state: 'loaded', olderFormat: 2 });
    assert.equal(old.rowsInMemory, 0, 'its rows are read back from its file');
    keys.forEach((key, i) => assert.deepEqual(old.get(key), unitOf(i)));
    assert.equal(old.dirty, true);
    await old.save();
    assert.equal(metaOf(dir).version, 3);
    assert.deepEqual(fs.readdirSync(dir).sort(), [EmbeddingCache.META_FILE, metaOf(dir).vectors].sort());
    const upgraded = await EmbeddingCache.load(dir, 'Embeddings');
    keys.forEach((key, i) => assert.deepEqual(upgraded.get(key), unitOf(i)));
  });

  it('appends new rows to the file and a line to the journal, rewriting neither, and loads them all', async () => {
    const { cache, keys } = await filled('Embeddings', 10);
    await cache.save();
    const inode = fs.statSync(vectorsFile(dir)).ino;
    const metaText = fs.readFileSync(metaFile(dir), 'utf8');

    const reloaded = await EmbeddingCache.load(dir, 'Embeddings');
    const more = Array.from({ length: 5 }, (_, i) => reloaded.keyFor(`more ${i}`));
    more.forEach((key, i) => reloaded.set(key, vectorOf(100 + i)));
    assert.equal(reloaded.dirty, true);
    await reloaded.save();
    assert.equal(reloaded.dirty, false);
    assert.equal(fs.statSync(vectorsFile(dir)).ino, inode, 'the vectors file was appended to, not replaced');
    assert.equal(fs.statSync(vectorsFile(dir)).size, 15 * DIMS * 4);
    assert.equal(fs.readFileSync(metaFile(dir), 'utf8'), metaText, 'the meta file is not written by an append');
    assert.equal(fs.readFileSync(path.join(dir, metaOf(dir).journal), 'utf8').split('\n').length, 2, 'one journal line');

    const last = await EmbeddingCache.load(dir, 'Embeddings');
    assert.equal(last.size, 15);
    keys.forEach((key, i) => assert.deepEqual(last.get(key), unitOf(i)));
    more.forEach((key, i) => assert.deepEqual(last.get(key), unitOf(100 + i)));
  });

  it('a prune that leaves more than a third of the rows dead compacts the file into new ones', async () => {
    const { cache, keys } = await filled('Embeddings', 20);
    await cache.save();
    const live = new Set(keys.filter((_, i) => i % 3 === 0));
    assert.equal(cache.prune(live), 20 - live.size);
    assert.equal(cache.size, live.size);
    assert.equal(cache.get(keys[1]), undefined);
    await cache.save();
    assert.equal(fs.statSync(vectorsFile(dir)).size, live.size * DIMS * 4);

    const loaded = await EmbeddingCache.load(dir, 'Embeddings');
    assert.equal(loaded.size, live.size);
    keys.forEach((key, i) => assert.deepEqual(loaded.get(key), live.has(key) ? unitOf(i) : undefined));
    assert.deepEqual(fs.readdirSync(dir).sort(), [EmbeddingCache.META_FILE, metaOf(dir).vectors].sort(), 'no other file left behind');
  });

  it('a model change starts a new cache, which replaces the old one on save', async () => {
    const { cache, keys } = await filled('Embeddings', 5);
    await cache.save();

    const other = await EmbeddingCache.load(dir, 'EmbeddingsGigaR');
    assert.equal(other.loadInfo.state, 'modelChanged');
    assert.equal(other.size, 0);
    assert.equal(other.get(keys[0]), undefined);
    const key = other.keyFor('chunk 0');
    assert.notEqual(key, keys[0]);
    other.set(
      key,
      Float32Array.from({ length: 4 }, (_, i) => i),
    ); // another model, another length
    await other.save();

    assert.equal((await EmbeddingCache.load(dir, 'EmbeddingsGigaR')).get(key)?.length, 4);
    assert.equal((await EmbeddingCache.load(dir, 'Embeddings')).loadInfo.state, 'modelChanged');
  });

  it('refuses a vector of another length', async () => {
    const { cache } = await filled('Embeddings', 1);
    assert.throws(() => cache.set('x', new Float32Array(DIMS + 1)), /dimensions/);
  });

  describe('discards a corrupt or inconsistent cache without crashing', () => {
    const corruptions: [string, (dir: string) => void][] = [
      ['meta.json is not JSON', (d) => fs.writeFileSync(metaFile(d), '{"version":1,')],
      ['meta.json is binary garbage', (d) => fs.writeFileSync(metaFile(d), Buffer.from([0xff, 0xfe, 0, 1, 2]))],
      ['vectors.f32 is truncated', (d) => fs.truncateSync(vectorsFile(d), 10 * DIMS * 4 - 6)],
      ['vectors.f32 is missing', (d) => fs.rmSync(vectorsFile(d))],
      ['vectors.f32 was half written (a crash after the meta file was replaced): a row is zeros', (d) => overwrite(d, 3 * DIMS * 4, Buffer.alloc(DIMS * 4))],
      ['vectors.f32 has one flipped bit', (d) => overwrite(d, 5 * DIMS * 4 + 2, Buffer.from([fs.readFileSync(vectorsFile(d))[5 * DIMS * 4 + 2] ^ 0x10]))],
      [
        'vectors.f32 holds a value that is no number',
        (d) => (overwrite(d, 0, Buffer.from(new Float32Array([Number.NaN]).buffer)), editMeta(d, (m) => ({ ...m, version: 1 }))),
      ],
      ['meta.json was cut short', (d) => fs.writeFileSync(metaFile(d), fs.readFileSync(metaFile(d)).subarray(0, 40))],
      ['the checksum is missing', (d) => editMeta(d, (m) => ({ ...m, crc32: undefined }))],
      ['meta.json is a directory', (d) => (fs.rmSync(metaFile(d)), fs.mkdirSync(metaFile(d)))],
      ['count and keys disagree', (d) => editMeta(d, (m) => ({ ...m, count: 11 }))],
      ['keys repeat', (d) => editMeta(d, (m) => ({ ...m, keys: [...(m.keys as string[]).slice(1), (m.keys as string[])[1]] }))],
      ['the format version is unknown', (d) => editMeta(d, (m) => ({ ...m, version: 99 }))],
      ['the dimensions are not a number', (d) => editMeta(d, (m) => ({ ...m, dimensions: '8' }))],
      ['the byte order is the other one', (d) => editMeta(d, (m) => ({ ...m, endian: os.endianness() === 'LE' ? 'BE' : 'LE' }))],
    ];
    function overwrite(d: string, position: number, bytes: Buffer) {
      const handle = fs.openSync(vectorsFile(d), 'r+');
      fs.writeSync(handle, bytes, 0, bytes.length, position);
      fs.closeSync(handle);
    }
    function editMeta(d: string, edit: (meta: Record<string, unknown>) => Record<string, unknown>) {
      fs.writeFileSync(metaFile(d), JSON.stringify(edit(JSON.parse(fs.readFileSync(metaFile(d), 'utf8')) as Record<string, unknown>)));
    }

    for (const [name, corrupt] of corruptions) {
      it(name, async () => {
        const { cache, keys } = await filled('Embeddings', 10);
        await cache.save();
        corrupt(dir);
        const loaded = await EmbeddingCache.load(dir, 'Embeddings');
        assert.equal(loaded.loadInfo.state, 'discarded', loaded.loadInfo.reason);
        assert.equal(loaded.size, 0);
        // And it heals: the next save writes a good cache.
        loaded.set(keys[0], vectorOf(0));
        if (fs.statSync(metaFile(dir)).isDirectory()) fs.rmdirSync(metaFile(dir));
        await loaded.save();
        const healed = await EmbeddingCache.load(dir, 'Embeddings');
        assert.equal(healed.loadInfo.state, 'loaded');
        assert.deepEqual(healed.get(keys[0]), unitOf(0));
        assert.equal(healed.size, 1);
      });
    }
  });

  it('ignores rows past the committed count (a save cut short) and overwrites them on the next save', async () => {
    const { cache, keys } = await filled('Embeddings', 4);
    await cache.save();
    fs.appendFileSync(vectorsFile(dir), Buffer.alloc(DIMS * 4 + 3, 0xab));

    const loaded = await EmbeddingCache.load(dir, 'Embeddings');
    assert.equal(loaded.loadInfo.state, 'loaded');
    assert.equal(loaded.size, 4);
    const extra = loaded.keyFor('extra');
    loaded.set(extra, vectorOf(9));
    await loaded.save();
    assert.equal(fs.statSync(vectorsFile(dir)).size, 5 * DIMS * 4);

    const last = await EmbeddingCache.load(dir, 'Embeddings');
    assert.deepEqual(last.get(extra), unitOf(9));
    keys.forEach((key, i) => assert.deepEqual(last.get(key), unitOf(i)));
  });

  it('saves queue up; vectors set during a save go into the next one', async () => {
    const { cache } = await filled('Embeddings', 3);
    const first = cache.save();
    const late = cache.keyFor('late');
    cache.set(late, vectorOf(7));
    await Promise.all([first, cache.save()]);
    const loaded = await EmbeddingCache.load(dir, 'Embeddings');
    assert.equal(loaded.size, 4);
    assert.deepEqual(loaded.get(late), unitOf(7));
  });

  it('a prune while a save writes rows never pairs a key with another row', async () => {
    // Rows of 16 KiB: the save writes them in several blocks, with the prune between two.
    const wide = (seed: number) => Float32Array.from({ length: 4096 }, (_, i) => Math.sin(seed * 31 + i) + seed / 100);
    const cache = await EmbeddingCache.load(dir, 'Embeddings');
    const keys = Array.from({ length: 300 }, (_, i) => cache.keyFor(`wide ${i}`));
    keys.forEach((key, i) => cache.set(key, wide(i)));
    const saving = cache.save();
    while (!fs.readdirSync(dir).some((name) => name.endsWith('.f32'))) await new Promise(setImmediate);
    const live = new Set(keys.filter((_, i) => i % 2 === 1));
    cache.prune(live); // moves rows the running save has yet to read
    await Promise.all([saving, cache.save()]);
    const loaded = await EmbeddingCache.load(dir, 'Embeddings');
    assert.equal(loaded.size, live.size);
    keys.forEach((key) => assert.deepEqual(loaded.get(key), cache.get(key)));
  });

  it('replacing a stored vector rewrites its row', async () => {
    const { cache, keys } = await filled('Embeddings', 3);
    await cache.save();
    cache.set(keys[1], vectorOf(50));
    await cache.save();
    const loaded = await EmbeddingCache.load(dir, 'Embeddings');
    assert.deepEqual(loaded.get(keys[1]), unitOf(50));
    assert.deepEqual(loaded.get(keys[2]), unitOf(2));
    assert.equal(loaded.size, 3);
  });
});
