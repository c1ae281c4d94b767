import * as assert from 'node:assert/strict';
import { repoRoot } from '../../support/repoRoot';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { queryForModel, type ServiceClient } from '../../../../src/core';
import { EmbeddingCache } from '../../../../src/core/search/cache/embeddingCache';
import { WorkspaceIndexer, type SourceFile } from '../../../../src/core/search/indexer';
import { EMBEDDING_DIMENSIONS } from '../../../emulator/constants';
import { useEmulator } from '../../support/fixture';

const FILES: SourceFile[] = [
  { path: 'src/uploads.ts', text: 'export function retryFailedUploads() { /* retry each failed upload with backoff */ }\n' },
  { path: 'src/theme.ts', text: 'export const palette = { dark: "#1e1e1e" }; // theme colours for buttons\n' },
  { path: 'src/database.ts', text: 'export function migrate() { /* schema migration: add a column to the table */ }\n' },
];
const QUESTION = 'where do we retry failed uploads';
const INSTRUCTION = 'Дано предложение, необходимо найти его парафраз \nпредложение: ';

describe('the service’s embedding models, against the emulator', () => {
  const t = useEmulator();
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedding-models-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** An indexer of `model` over the cache in `dir`, embedding as the extension does (the client, that model). */
  async function indexerFor(model: string, client: ServiceClient = t.client): Promise<WorkspaceIndexer> {
    const cache = await EmbeddingCache.load(dir, model);
    return new WorkspaceIndexer({ cache, embed: (texts, signal) => client.embeddings(texts, { model, signal }) });
  }

  async function search(indexer: WorkspaceIndexer, question: string): Promise<string[]> {
    const model = indexer.cache.model;
    const [vector] = await t.client.embeddings([queryForModel(model, question)], { model });
    return indexer.search(vector, 3).map((hit) => hit.path);
  }

  const sentTexts = () => t.emulator.requests.filter((r) => r.endpoint === 'embeddings').flatMap((r) => (JSON.parse(r.body) as { input: string[] }).input);

  it('the setting suggests the embedders GET /models lists, as the recorded catalogue does', async () => {
    const embedders = (await t.client.models()).filter((model) => model.type === 'embedder').map((model) => model.id);
    assert.deepEqual(embedders, ['Embeddings', 'Embeddings-2', 'EmbeddingsGigaR', 'GigaEmbeddings-3B-2025-09']);
    const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, { anyOf?: { enum?: string[] }[] }> }[] };
    };
    const setting = manifest.contributes.configuration.map((category) => category.properties['gigachat.embeddingsModel']).find(Boolean);
    assert.deepEqual(setting?.anyOf?.[0].enum, embedders);
  });

  for (const [model, dimensions] of Object.entries(EMBEDDING_DIMENSIONS)) {
    it(`${model}: the index takes the vectors’ length (${dimensions}) from the first answer, and finds the right file`, async () => {
      const indexer = await indexerFor(model);
      await indexer.indexFiles(FILES);
      assert.equal(indexer.cache.dimensions, dimensions);
      assert.equal((await search(indexer, QUESTION))[0], 'src/uploads.ts');
    });
  }

  it('EmbeddingsGigaR: the query goes with the documented instruction, the files’ chunks without it', async () => {
    const indexer = await indexerFor('EmbeddingsGigaR');
    await indexer.indexFiles(FILES);
    const chunks = sentTexts();
    assert.equal(chunks.length, FILES.length);
    assert.ok(
      chunks.every((text) => !text.includes('парафраз')),
      `no chunk carries the instruction: ${chunks.join(' | ')}`,
    );
    t.emulator.resetCounts();
    assert.equal((await search(indexer, QUESTION))[0], 'src/uploads.ts');
    assert.deepEqual(sentTexts(), [INSTRUCTION + QUESTION], 'the query, after the instruction, exactly');
  });

  it('the other models get the query as it is', async () => {
    for (const model of ['Embeddings', 'Embeddings-2', 'GigaEmbeddings-3B-2025-09']) assert.equal(queryForModel(model, QUESTION), QUESTION);
    assert.equal(queryForModel('SomeFutureEmbedder', QUESTION), QUESTION);
  });

  it('a cache of another model is not mixed in: every chunk is embedded again with the new one, and the old cache stays until the new one is saved', async () => {
    const first = await indexerFor('Embeddings');
    await first.indexFiles(FILES);
    await first.cache.save();

    t.emulator.resetCounts();
    const other = await indexerFor('EmbeddingsGigaR');
    assert.equal(other.cache.loadInfo.state, 'modelChanged');
    assert.equal(other.cache.size, 0, 'no vector of the other model is loaded');
    const result = await other.indexFiles(FILES);
    assert.equal(result.embeddedChunks, FILES.length, 'every chunk embedded with the new model');
    assert.ok(t.emulator.requests.every((r) => r.endpoint !== 'embeddings' || JSON.parse(r.body).model === 'EmbeddingsGigaR'));
    assert.equal(other.cache.dimensions, EMBEDDING_DIMENSIONS.EmbeddingsGigaR);

    // Declined or not saved yet: going back to the first model costs nothing.
    const back = await indexerFor('Embeddings');
    assert.equal(back.cache.loadInfo.state, 'loaded');
    t.emulator.resetCounts();
    assert.equal((await back.indexFiles(FILES)).embeddedChunks, 0);
    assert.equal(t.emulator.count('embeddings'), 0);
  });
});
