import * as assert from 'node:assert/strict';
import { rejectsWith, useEmulator } from '../../support/fixture';
import { cosine } from '../../support/cosine';

describe('ServiceClient against the emulator: embeddings', () => {
  const t = useEmulator({ maxBatch: 10 });

  it('returns one 1024-dimensional vector per text, in input order although the service shuffles', async () => {
    const texts = Array.from({ length: 25 }, (_, i) => `text number ${i} about ${i % 2 ? 'uploads' : 'themes'}`);
    const vectors = await t.client.embeddings(texts);
    assert.equal(vectors.length, 25);
    const again = await t.client.embeddings([texts[17]]);
    assert.equal(vectors[0].length, 1024);
    assert.ok(cosine(vectors[17], again[0]) > 0.9999, 'vector 17 belongs to text 17');
  });

  it('sends batches within the configured limits', async () => {
    const client = t.clientWith({ embeddingBatch: { maxItems: 4, maxChars: 1_000 } });
    await client.embeddings(Array.from({ length: 10 }, (_, i) => `chunk ${i}`));
    assert.equal(t.emulator.count('embeddings'), 3);
    const sizes = t.emulator.requests.filter((r) => r.endpoint === 'embeddings').map((r) => (JSON.parse(r.body) as { input: string[] }).input.length);
    assert.deepEqual(sizes, [4, 4, 2]);
  });

  it('splits a batch the service refuses as too large (413) and retries the halves', async () => {
    const client = t.clientWith({ embeddingBatch: { maxItems: 40, maxChars: 1_000_000 } });
    const texts = Array.from({ length: 40 }, (_, i) => `snippet ${i}`);
    const vectors = await client.embeddings(texts);
    assert.equal(vectors.length, 40);
    const sizes = t.emulator.requests.filter((r) => r.endpoint === 'embeddings').map((r) => (JSON.parse(r.body) as { input: string[] }).input.length);
    assert.deepEqual(sizes, [40, 20, 10, 10, 20, 10, 10]);
  });

  it('puts texts that share words closer than unrelated ones', async () => {
    const [query, related, unrelated] = await t.client.embeddings([
      'where do we retry failed uploads',
      'retry the upload when it failed',
      'css colour theme for buttons',
    ]);
    assert.ok(cosine(query, related) > cosine(query, unrelated));
  });

  it('an answer one vector short is a protocol error that names the counts and carries the request id', async () => {
    t.emulator.inject({ kind: 'missingItem' }, { endpoint: 'embeddings' });
    // The emulator answers with the request id the client sends, so the test knows it.
    const client = t.clientWith({ headers: { 'X-Request-ID': 'short-answer-1' } });
    const error = await rejectsWith(client.embeddings(['first text', 'second text', 'third text']), 'protocol');
    assert.match(error.message, /returned 2 embeddings for 3 inputs/);
    assert.equal(error.requestId, 'short-answer-1', 'the request id, for the log');
  });

  it('an unknown embeddings model is notFound; an empty input makes no request', async () => {
    await rejectsWith(t.client.embeddings(['x'], { model: 'NoSuchEmbedder' }), 'notFound');
    assert.deepEqual(await t.client.embeddings([]), []);
    assert.equal(t.emulator.count('embeddings'), 1);
  });
});
