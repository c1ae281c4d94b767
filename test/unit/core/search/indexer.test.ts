import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ServiceError, type ServiceClient } from '../../../../src/core';
import { chunkText } from '../../../../src/core/search/syntax/chunker';
import { EmbeddingCache } from '../../../../src/core/search/cache/embeddingCache';
import { WorkspaceIndexer, type SourceFile, type WorkspaceIndexerOptions } from '../../../../src/core/search/indexer';
import { rejectsWith, useEmulator } from '../../support/fixture';

const TOPICS: Record<string, string[]> = {
  'src/upload.ts': ['upload', 'retry', 'failed', 'network', 'resume', 'part'],
  'src/theme.ts': ['theme', 'colour', 'button', 'dark', 'palette', 'contrast'],
  'src/auth.ts': ['token', 'oauth', 'authorization', 'expire', 'refresh', 'scope'],
  'docs/setup.md': ['install', 'extension', 'proxy', 'certificate', 'settings', 'trust'],
  'src/db.ts': ['query', 'table', 'migration', 'column', 'transaction', 'schema'],
  'src/log.ts': ['logger', 'level', 'channel', 'message', 'verbose', 'output'],
};

const CHUNKING = { maxChars: 400 };

/** A file of `functions` functions about its topic: each function is one chunk at maxChars 400. */
function sourceText(words: string[], functions = 5, salt = ''): string {
  return Array.from({ length: functions }, (_, f) =>
    [
      `export function ${words[0]}Step${f}(input: string): string {`,
      ...Array.from(
        { length: 5 },
        (_, i) => `  // ${words[(f + i) % words.length]} ${words[(f + i + 1) % words.length]} handled in part ${i} of step ${f}${salt}`,
      ),
      '  return input;',
      '}',
      '',
    ].join('\n'),
  ).join('\n');
}

function workspace(): SourceFile[] {
  return Object.entries(TOPICS).map(([file, words]) => ({ path: file, text: sourceText(words) }));
}

function uniqueChunkCount(files: SourceFile[]): number {
  return new Set(files.flatMap((f) => chunkText(f.text, CHUNKING).map((c) => c.text))).size;
}

/** The texts sent to the emulator's embeddings endpoint since the last reset. */
function sentTexts(requests: { endpoint: string; body: string }[]): string[] {
  return requests.filter((r) => r.endpoint === 'embeddings').flatMap((r) => (JSON.parse(r.body) as { input: string[] }).input);
}

/** Every indexed chunk has its vector in the cache, and matches what chunking the file gives. */
function assertConsistent(indexer: WorkspaceIndexer, files: SourceFile[]): void {
  for (const p of indexer.paths()) {
    const record = indexer.file(p)!;
    const file = files.find((f) => f.path === p)!;
    const expected = chunkText(file.text, CHUNKING);
    assert.deepEqual(
      record.chunks.map((c) => [c.startLine, c.endLine, c.key]),
      expected.map((c) => [c.startLine, c.endLine, indexer.cache.keyFor(c.text)]),
      `${p} is indexed whole`,
    );
    for (const chunk of record.chunks) assert.ok(indexer.cache.has(chunk.key), `${p}: a chunk without a vector`);
  }
}

describe('WorkspaceIndexer against the emulator', function () {
  this.timeout(10_000);
  const t = useEmulator();
  let dir: string;
  let client: ServiceClient;

  before(() => {
    // No client-side 429 retries: the indexer's own adaptive handling is what is under test.
    client = t.clientWith({ maxRetries: 0, embeddingBatch: { maxItems: 64, maxChars: 64_000 } });
  });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'indexer-'));
  });
  afterEach(() => {
    t.emulator.setOptions({ latencyMs: 0, maxConcurrent: Infinity });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** An indexer whose embed calls are observed: how many run at once, and when each starts. */
  async function makeIndexer(options: Partial<WorkspaceIndexerOptions> = {}) {
    const cache = options.cache ?? (await EmbeddingCache.load(dir, 'Embeddings'));
    const calls = { inFlight: 0, maxInFlight: 0, starts: [] as number[] };
    const indexer = new WorkspaceIndexer({
      embed: async (texts, signal) => {
        calls.inFlight += 1;
        calls.maxInFlight = Math.max(calls.maxInFlight, calls.inFlight);
        calls.starts.push(Date.now());
        try {
          return await client.embeddings(texts, { signal });
        } finally {
          calls.inFlight -= 1;
        }
      },
      cache,
      batchSize: 4,
      chunkOptions: CHUNKING,
      rateLimit: { baseDelayMs: 5, maxDelayMs: 40 },
      ...options,
    });
    return { indexer, cache, calls };
  }

  describe('a cache whose vectors are of another length than the model gives', () => {
    /** A cache on disk of 8-dimensional vectors for "Embeddings" (the emulator's are 1024), holding the workspace's chunks. */
    async function foreignCache(files: SourceFile[]): Promise<void> {
      const cache = await EmbeddingCache.load(dir, 'Embeddings');
      for (const file of files) for (const chunk of chunkText(file.text, CHUNKING)) cache.set(cache.keyFor(chunk.text), new Float32Array(8).fill(0.5));
      await cache.save();
    }

    it('is discarded and the workspace indexed again, once, with a reason to log; the cache on disk is replaced', async () => {
      const files = workspace();
      await foreignCache(files.slice(0, 3));
      const { indexer, cache } = await makeIndexer();
      assert.equal(cache.dimensions, 8, 'the premise: the stale cache loaded');
      const reasons: string[] = [];
      const result = await indexer.indexAll(() => files, { onVectorsDiscarded: (reason) => reasons.push(reason) });
      assert.equal(reasons.length, 1);
      assert.match(reasons[0], /1024-dimensional vectors; the search index holds 8-dimensional/);
      assert.equal(result.files, files.length);
      assert.equal(result.cachedChunks, 0, 'nothing of the old cache was used');
      assertConsistent(indexer, files);
      const [query] = await client.embeddings(['theme colour button dark palette']);
      assert.equal(indexer.search(query, 1)[0].path, 'src/theme.ts');
      await cache.save();
      const reopened = await EmbeddingCache.load(dir, 'Embeddings');
      assert.equal(reopened.dimensions, 1024);
      assert.equal(reopened.size, uniqueChunkCount(files));
    });

    it('fails a single run with EMBEDDING_DIMENSIONS_CHANGED, and a search with a query of another length too', async () => {
      const files = workspace();
      await foreignCache(files.slice(0, 1));
      const { indexer } = await makeIndexer();
      const error = await rejectsWith(indexer.indexFiles(files.slice(1)), 'protocol');
      assert.equal(error.code, 'EMBEDDING_DIMENSIONS_CHANGED');
      await indexer.indexFiles(files.slice(0, 1)); // every chunk from the 8-dimensional cache
      assert.throws(
        () => indexer.search(new Float32Array(1024), 3),
        (thrown: unknown) => thrown instanceof ServiceError && thrown.code === 'EMBEDDING_DIMENSIONS_CHANGED',
      );
    });

    it('once emptied and saved, is gone from disk even before a new vector arrives', async () => {
      await foreignCache(workspace().slice(0, 1));
      const { indexer, cache } = await makeIndexer();
      indexer.discardVectors();
      await cache.save();
      assert.equal((await EmbeddingCache.load(dir, 'Embeddings')).loadInfo.state, 'missing');
    });
  });

  it('indexes every chunk, and re-indexing unchanged files (also after a restart) makes no embedding request', async () => {
    const files = workspace();
    const { indexer, cache } = await makeIndexer();
    const progress: number[] = [];
    const result = await indexer.indexFiles(files, { onProgress: (p) => progress.push(p.files) });
    const unique = uniqueChunkCount(files);
    assert.equal(result.files, files.length);
    assert.equal(result.chunks, 30);
    assert.equal(result.embeddedChunks, unique);
    assert.equal(result.cachedChunks, 0);
    assert.equal(result.requests, Math.ceil(unique / 4));
    assert.equal(t.emulator.count('embeddings'), result.requests);
    assert.equal(progress.at(-1), files.length);
    assert.deepEqual(indexer.stats.files, files.length);
    assertConsistent(indexer, files);

    t.emulator.resetCounts();
    const again = await indexer.indexFiles(files);
    assert.deepEqual([again.requests, again.embeddedChunks, again.cachedChunks, again.files], [0, 0, 30, files.length]);
    assert.equal(t.emulator.count('embeddings'), 0);

    await cache.save();
    const restarted = await makeIndexer({ cache: await EmbeddingCache.load(dir, 'Embeddings') });
    const afterRestart = await restarted.indexer.indexFiles(
      (async function* () {
        yield* files;
      })(),
    );
    assert.deepEqual([afterRestart.requests, afterRestart.cachedChunks], [0, 30]);
    assert.equal(t.emulator.count('embeddings'), 0);
    assert.equal(restarted.cache.loadInfo.state, 'loaded');
    assertConsistent(restarted.indexer, files);
  });

  it('a cache file damaged on disk is discarded on reopening, and everything embedded again', async () => {
    const files = workspace();
    const { indexer, cache } = await makeIndexer();
    await indexer.indexFiles(files);
    await cache.save();
    // Rows the meta file counts that are no longer on disk as written (zeros in their place).
    const vectorsFile = cache.vectorsFile!;
    fs.truncateSync(vectorsFile, fs.statSync(vectorsFile).size - 1024 * 4);
    fs.truncateSync(vectorsFile, fs.statSync(vectorsFile).size + 1024 * 4);

    t.emulator.resetCounts();
    const reopened = await makeIndexer({ cache: await EmbeddingCache.load(dir, 'Embeddings') });
    assert.equal(reopened.cache.loadInfo.state, 'discarded');
    const result = await reopened.indexer.indexFiles(files);
    assert.deepEqual([result.embeddedChunks, result.cachedChunks], [uniqueChunkCount(files), 0]);
    assertConsistent(reopened.indexer, files);
  });

  it('an edit re-embeds only the chunk whose text changed', async () => {
    const files = workspace();
    const { indexer } = await makeIndexer();
    await indexer.indexFiles(files);
    t.emulator.resetCounts();

    const edited = { ...files[0], text: files[0].text.replace('handled in part 2 of step 3', 'handled in part 2 of step 3 and cached') };
    const result = await indexer.updateFile(edited.path, edited.text);
    assert.deepEqual([result.requests, result.embeddedChunks, result.cachedChunks], [1, 1, 4]);
    assert.deepEqual(
      sentTexts(t.emulator.requests).map((text) => text.includes('and cached')),
      [true],
    );
    assertConsistent(indexer, [edited, ...files.slice(1)]);
  });

  it('slows down under a storm of 429s without Retry-After, and still indexes every chunk', async () => {
    const files = workspace();
    t.emulator.inject({ kind: 'status', status: 429 }, { endpoint: 'embeddings', times: 6 });
    const { indexer, calls } = await makeIndexer({ maxInFlight: 4, batchSize: 2 });
    const result = await indexer.indexFiles(files);
    assert.equal(result.rateLimited, 6);
    assert.equal(result.embeddedChunks, uniqueChunkCount(files));
    assert.ok(calls.maxInFlight <= 4);
    assertConsistent(indexer, files);
    assert.equal(indexer.stats.files, files.length);
  });

  it('waits out Retry-After before sending again', async () => {
    const files = workspace();
    t.emulator.inject({ kind: 'status', status: 429, retryAfterSeconds: 0.15 }, { endpoint: 'embeddings', times: 2 });
    const { indexer, calls } = await makeIndexer({ maxInFlight: 1, batchSize: 8 });
    const result = await indexer.indexFiles(files);
    assert.equal(result.rateLimited, 2);
    assert.equal(result.requests, Math.ceil(uniqueChunkCount(files) / 8) + 2);
    assert.ok(calls.starts[1] - calls.starts[0] >= 140, `the retry came ${calls.starts[1] - calls.starts[0]} ms after the 429`);
    assert.ok(calls.starts[2] - calls.starts[1] >= 140);
    assertConsistent(indexer, files);
    assert.equal(indexer.stats.chunks, 30);
  });

  it('adapts to a service that serves one request at a time', async () => {
    t.emulator.setOptions({ maxConcurrent: 1, latencyMs: 15 });
    const files = workspace();
    const { indexer } = await makeIndexer({ maxInFlight: 4, batchSize: 2 });
    const result = await indexer.indexFiles(files);
    assert.ok(result.rateLimited > 0, 'the service did push back');
    assert.ok(result.rateLimited < result.requests, 'most requests went through');
    assert.equal(result.embeddedChunks, uniqueChunkCount(files));
    assert.ok(indexer.stats.maxInFlight < 4, `the in-flight limit is ${indexer.stats.maxInFlight}`);
    assertConsistent(indexer, files);
  });

  it('a cancelled run keeps what it finished, and the rerun embeds only the rest', async () => {
    t.emulator.setOptions({ latencyMs: 30 });
    const files = workspace();
    const { indexer, cache } = await makeIndexer({ maxInFlight: 1, batchSize: 3 });
    const controller = new AbortController();
    const run = indexer.indexFiles(files, {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.embeddedChunks >= 6) controller.abort();
      },
    });
    await rejectsWith(run, 'cancelled');
    const embeddedBefore = new Set(cache.keys());
    assert.ok(embeddedBefore.size >= 6 && embeddedBefore.size < uniqueChunkCount(files), `${embeddedBefore.size} chunks embedded before the abort`);
    assert.ok(indexer.stats.files >= 1 && indexer.stats.files < files.length, `${indexer.stats.files} files indexed`);
    assertConsistent(indexer, files);

    await cache.save(); // what a window closing mid-run would do
    t.emulator.setOptions({ latencyMs: 0 });
    t.emulator.resetCounts();
    const { indexer: rerun } = await makeIndexer({ cache: await EmbeddingCache.load(dir, 'Embeddings') });
    const result = await rerun.indexFiles(files);
    const sent = sentTexts(t.emulator.requests).map((text) => cache.keyFor(text));
    assert.equal(sent.length, uniqueChunkCount(files) - embeddedBefore.size);
    assert.ok(
      sent.every((key) => !embeddedBefore.has(key)),
      'nothing embedded before was sent again',
    );
    assert.equal(result.cachedChunks, 30 - sent.length);
    assertConsistent(rerun, files);
    assert.equal(rerun.stats.files, files.length);
  });

  describe('a run cut short (the window reloaded, crashed or closed) with checkpoints every few batches', () => {
    it('loses at most the batches since the last checkpoint: reopened, the cache holds the rest, and only what is missing is embedded', async () => {
      t.emulator.setOptions({ latencyMs: 20 });
      const files = workspace();
      const unique = uniqueChunkCount(files);
      const { indexer, cache } = await makeIndexer({ maxInFlight: 1, batchSize: 3, saveEvery: 2 });
      const kill = new AbortController();
      // Killed between batches, never saved by the caller: what is on disk is what the checkpoints wrote.
      const run = indexer.indexFiles(files, { signal: kill.signal, onProgress: (p) => p.embeddedChunks >= 15 && kill.abort() });
      await rejectsWith(run, 'cancelled');
      await indexer.checkpointSaved;
      const embeddedBefore = new Set(cache.keys());
      const sentBefore = sentTexts(t.emulator.requests).length;

      t.emulator.setOptions({ latencyMs: 0 });
      t.emulator.resetCounts();
      const reopened = await EmbeddingCache.load(dir, 'Embeddings');
      assert.equal(reopened.loadInfo.state, 'loaded');
      const saved = new Set(reopened.keys());
      // 5 batches stored, checkpoints after the 2nd and 4th: at least 12 rows on disk (the 5th batch's
      // too when it arrived before the second save began, which queues behind the first).
      assert.ok(saved.size >= 12 && saved.size <= embeddedBefore.size, `${saved.size} of ${embeddedBefore.size} vectors saved`);
      assert.ok([...saved].every((key) => embeddedBefore.has(key)));
      const { indexer: resumed } = await makeIndexer({ cache: reopened });
      const result = await resumed.indexFiles(files);
      const sentAfter = sentTexts(t.emulator.requests).map((text) => cache.keyFor(text));
      assert.equal(sentAfter.length, unique - saved.size, 'only what is not on disk is embedded');
      assert.ok(
        sentAfter.every((key) => !saved.has(key)),
        'nothing saved is sent again',
      );
      assert.equal(t.emulator.count('embeddings'), result.requests, 'no request but the resumed run’s');
      assert.ok(sentBefore + sentAfter.length <= unique + 2 * 3, `paid for ${sentBefore + sentAfter.length} of ${unique}: at most the unsaved batches again`);
      assert.equal(result.files, files.length);
      assertConsistent(resumed, files);
    });

    it('without checkpoints nothing is written until the caller saves', async () => {
      const { indexer } = await makeIndexer();
      await indexer.indexFiles(workspace());
      await indexer.checkpointSaved;
      assert.equal(fs.existsSync(path.join(dir, EmbeddingCache.META_FILE)), false);
    });

    it('a checkpoint that cannot be written is reported, and indexing goes on to the end', async () => {
      const blocker = path.join(dir, 'not-a-folder');
      fs.writeFileSync(blocker, '');
      const failures: unknown[] = [];
      const { indexer } = await makeIndexer({
        cache: await EmbeddingCache.load(path.join(blocker, 'cache'), 'Embeddings'),
        saveEvery: 1,
        onSaveFailed: (error) => failures.push(error),
      });
      const result = await indexer.indexFiles(workspace());
      await indexer.checkpointSaved;
      assert.equal(result.files, workspace().length);
      assert.ok(failures.length >= 1 && failures.every((error) => /ENOTDIR|EEXIST/.test(String(error))), String(failures[0]));
    });
  });

  it('a failed run rejects with the error and keeps finished files; the rerun completes', async () => {
    const files = workspace();
    t.emulator.inject({ kind: 'status', status: 500 }, { endpoint: 'embeddings', times: 1, match: () => t.emulator.count('embeddings') > 2 });
    const { indexer } = await makeIndexer({ maxInFlight: 1, batchSize: 4 });
    const error = await rejectsWith(indexer.indexFiles(files), 'server');
    assert.ok(error instanceof ServiceError);
    assert.ok(indexer.stats.files >= 1 && indexer.stats.files < files.length);
    assertConsistent(indexer, files);
    const rerun = await indexer.indexFiles(files);
    assert.ok(rerun.cachedChunks >= 8);
    assert.equal(indexer.stats.files, files.length);
    assertConsistent(indexer, files);
  });

  describe('search', () => {
    it("puts the file that shares the query's words first; follows renames and removals", async () => {
      const { indexer } = await makeIndexer();
      await indexer.indexFiles(workspace());
      const [query] = await client.embeddings(['where do we refresh an expired oauth token']);

      const hits = indexer.search(query, 5);
      assert.equal(hits.length, 5);
      assert.equal(hits[0].path, 'src/auth.ts');
      assert.ok(hits[0].score > hits[4].score);
      assert.match(hits[0].preview, /token|oauth|refresh|expire/);
      assert.ok(hits[0].endLine >= hits[0].startLine);

      indexer.renameFile('src/auth.ts', 'src/session/auth.ts');
      assert.equal(indexer.search(query, 1)[0].path, 'src/session/auth.ts');
      assert.equal(indexer.removeFile('src/session/auth.ts'), true);
      const after = indexer.search(query, 30);
      assert.ok(after.every((hit) => !hit.path.includes('auth')));
      assert.equal(after.length, 25);

      await indexer.updateFile('src/log.ts', 'export function refreshOauthToken() { /* expired token: refresh it with oauth */ }');
      assert.equal(indexer.search(query, 1)[0].path, 'src/log.ts');
      assert.equal(indexer.stats.chunks, 21);
    });
  });
});

describe('WorkspaceIndexer without a service', () => {
  const cacheDir = path.join(os.tmpdir(), 'never-written');

  it('never has more embed calls in flight than allowed, and halves the limit once per burst of 429s', async () => {
    let inFlight = 0;
    let peak = 0;
    let rateLimits = 3;
    const cache = EmbeddingCache.empty(cacheDir, 'test');
    const indexer = new WorkspaceIndexer({
      cache,
      maxInFlight: 4,
      batchSize: 1,
      rateLimit: { baseDelayMs: 1, maxDelayMs: 2 },
      embed: async (texts) => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 2));
        inFlight -= 1;
        if (rateLimits > 0) {
          rateLimits -= 1;
          throw new ServiceError('rateLimit', '429');
        }
        return texts.map((text) => Float32Array.from([text.length, 1]));
      },
    });
    const files = Array.from({ length: 40 }, (_, i) => ({ path: `f${i}`, text: `file number ${i}` }));
    let lowest = Infinity;
    const result = await indexer.indexFiles(files, { onProgress: () => (lowest = Math.min(lowest, indexer.stats.maxInFlight)) });
    assert.equal(peak, 4);
    assert.equal(result.rateLimited, 3);
    assert.equal(result.embeddedChunks, 40);
    assert.equal(indexer.stats.files, 40);
    assert.equal(lowest, 2, 'three 429s of one burst halve the limit once');
    assert.equal(indexer.stats.maxInFlight, 4, 'and it grows back');
  });

  it('a later edit wins over an unfinished earlier run for the same file', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const cache = EmbeddingCache.empty(cacheDir, 'test');
    const indexer = new WorkspaceIndexer({
      cache,
      embed: async (texts) => {
        if (texts.some((text) => text.includes('old'))) await gate;
        return texts.map(() => Float32Array.from([1, 0]));
      },
    });
    const slow = indexer.updateFile('a.ts', 'old text');
    await indexer.updateFile('a.ts', 'new text');
    open();
    await slow;
    assert.equal(indexer.file('a.ts')!.chunks[0].preview, 'new text');
  });

  it('embeds a text shared by several files once', async () => {
    let embedded = 0;
    const indexer = new WorkspaceIndexer({
      cache: EmbeddingCache.empty(cacheDir, 'test'),
      embed: async (texts) => {
        embedded += texts.length;
        return texts.map(() => Float32Array.from([1, 0]));
      },
    });
    const result = await indexer.indexFiles(['a', 'b', 'c'].map((name) => ({ path: name, text: '// Licensed under the MIT licence' })));
    assert.equal(embedded, 1);
    assert.equal(result.files, 3);
    assert.equal(indexer.liveKeys().size, 1);
    // One vector stands for the three chunks: a search finds each of them, and k still limits.
    assert.deepEqual(
      indexer.search(Float32Array.from([1, 0]), 5).map((hit) => [hit.path, hit.score]),
      [
        ['a', 1],
        ['b', 1],
        ['c', 1],
      ],
    );
    assert.equal(indexer.search(Float32Array.from([1, 0]), 2).length, 2);
  });
});
