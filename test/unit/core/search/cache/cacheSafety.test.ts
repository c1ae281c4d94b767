import * as assert from 'node:assert/strict';
import { repoRoot } from '../../../support/repoRoot';
import { fork } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EmbeddingCache } from '../../../../../src/core/search/cache/embeddingCache';
import { isDiskFull } from '../../../../../src/core/search/cache/cacheFiles';
import { injectDiskFaults } from '../../../support/diskFaults';

/**
 * The cache on disk survives what a save can meet: a full disk (ENOSPC) or the process killed in
 * the middle of writing. The state of the last save that completed stays readable, whole; nothing
 * is left behind but the files the meta file names; the next save writes what was lost.
 */
const DIMS = 64;
const MODEL = 'Embeddings';

function vectorOf(seed: number): Float32Array {
  return Float32Array.from({ length: DIMS }, (_, i) => Math.sin(seed * 31 + i) * 0.5 + seed / 1000);
}

function unitOf(vector: Float32Array): Float32Array {
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
  return vector.map((x) => x / norm);
}

describe('EmbeddingCache on a full disk or killed mid-save', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cache-safety-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A cache of `n` vectors saved in two saves (so the journal has a line), and what it holds. */
  async function saved(n: number): Promise<{ cache: EmbeddingCache; expected: Map<string, Float32Array> }> {
    const cache = await EmbeddingCache.load(dir, MODEL);
    const expected = new Map<string, Float32Array>();
    const put = (i: number) => {
      const key = cache.keyFor(`chunk ${i}`);
      cache.set(key, vectorOf(i));
      expected.set(key, unitOf(vectorOf(i)));
    };
    for (let i = 0; i < n - 5; i++) put(i);
    await cache.save();
    for (let i = n - 5; i < n; i++) put(i);
    await cache.save();
    return { cache, expected };
  }

  async function assertHolds(expected: Map<string, Float32Array>, label: string): Promise<EmbeddingCache> {
    const loaded = await EmbeddingCache.load(dir, MODEL);
    assert.equal(loaded.loadInfo.state, 'loaded', `${label}: ${loaded.loadInfo.reason}`);
    assert.equal(loaded.size, expected.size, `${label}: size`);
    for (const [key, vector] of expected) assert.deepEqual(loaded.get(key), vector, `${label}: ${key}`);
    return loaded;
  }

  /** The directory holds the meta file and what it names, nothing else (no temp file, no file of a save cut short). */
  function assertOnlyNamedFiles(label: string): void {
    const meta = JSON.parse(fs.readFileSync(path.join(dir, EmbeddingCache.META_FILE), 'utf8')) as { vectors: string; journal: string };
    const named = [EmbeddingCache.META_FILE, meta.vectors, meta.journal];
    const others = fs.readdirSync(dir).filter((name) => !named.includes(name));
    assert.deepEqual(others, [], `${label}: files left behind`);
  }

  it('a full disk while appending: the save fails saying so, the saved cache stays whole, and the next save writes it all', async () => {
    const { cache, expected } = await saved(40);
    const before = new Map(expected);
    const added = Array.from({ length: 6 }, (_, i) => cache.keyFor(`new ${i}`));
    added.forEach((key, i) => cache.set(key, vectorOf(100 + i)));
    const pruned = [...expected.keys()].slice(0, 4);
    cache.prune(new Set([...cache.keys()].filter((key) => !pruned.includes(key))));

    const faults = await injectDiskFaults((file) =>
      path.basename(file).startsWith('vectors') || path.basename(file).startsWith('journal') ? 'fail' : undefined,
    );
    try {
      await assert.rejects(cache.save(), (error) => isDiskFull(error));
      await assert.rejects(cache.save(), (error) => isDiskFull(error), 'a second try meets the same full disk: no rewrite of everything');
    } finally {
      faults.restore();
    }
    assertOnlyNamedFiles('after the failed saves');
    await assertHolds(before, 'after the failed saves');
    assert.equal(cache.dirty, true, 'what was not saved is still to save');

    await cache.save();
    added.forEach((key, i) => expected.set(key, unitOf(vectorOf(100 + i))));
    for (const key of pruned) expected.delete(key);
    await assertHolds(expected, 'once the disk has room');
  });

  it('a full disk while compacting: the appended save stands, the compaction leaves nothing behind and runs again later', async () => {
    const { cache, expected } = await saved(60);
    const live = new Set([...expected.keys()].slice(0, 20));
    cache.prune(live);
    for (const key of [...expected.keys()]) if (!live.has(key)) expected.delete(key);
    const inUse = cache.vectorsFile!;

    const faults = await injectDiskFaults((file) => (path.basename(file).startsWith('vectors') && file !== inUse ? 'fail' : undefined));
    try {
      await assert.rejects(cache.save(), (error) => isDiskFull(error));
    } finally {
      faults.restore();
    }
    assert.equal(cache.vectorsFile, inUse);
    assertOnlyNamedFiles('after the failed compaction');
    await assertHolds(expected, 'after the failed compaction');

    assert.equal(cache.dirty, true, 'the compaction is still due');
    await cache.save();
    assert.notEqual(cache.vectorsFile, inUse);
    assert.equal(cache.deadRows, 0);
    assertOnlyNamedFiles('after the compaction');
    await assertHolds(expected, 'after the compaction');
  });

  for (const stallOn of ['append', 'compaction'] as const) {
    it(`a window killed in the middle of ${stallOn === 'append' ? 'appending rows' : 'a compaction'} leaves the last complete save readable`, async function () {
      this.timeout(30_000);
      const { expected } = await saved(300);
      // Two thirds replaced: the save appends them, then compacts.
      const replaced = [...expected.keys()].filter((_, i) => i % 3 !== 0);
      const vectors: [string, number[]][] = replaced.map((key, i) => [key, Array.from(vectorOf(1000 + i))]);
      const child = fork(path.join(repoRoot, 'out/test/unit/support/cacheSave.child.js'), { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      const reply = new Promise<Record<string, unknown>>((resolve) => child.once('message', (m) => resolve(m as Record<string, unknown>)));
      child.send({ directory: dir, model: MODEL, stallOn, vectors });
      const message = await reply;
      child.kill('SIGKILL');
      await exited;
      assert.ok(message.stalled, `the child was to stall mid-write: ${JSON.stringify(message)}`);

      // Killed before the journal line: the previous save; after it (mid-compaction): the appended one.
      if (stallOn === 'compaction') replaced.forEach((key, i) => expected.set(key, unitOf(vectorOf(1000 + i))));
      const reopened = await assertHolds(expected, 'reopened after the kill');
      assertOnlyNamedFiles('reopened after the kill');

      // And the next save carries on from there.
      const late = reopened.keyFor('late');
      reopened.set(late, vectorOf(5000));
      expected.set(late, unitOf(vectorOf(5000)));
      await reopened.save();
      await assertHolds(expected, 'saved again');
    });
  }
});
