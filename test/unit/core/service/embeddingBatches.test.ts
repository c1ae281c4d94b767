import * as assert from 'node:assert/strict';
import { embedInBatches, planBatches } from '../../../../src/core/service/embeddingBatches';
import { ServiceError } from '../../../../src/core';

const vectorOf = (text: string) => Float32Array.of(text.length);

describe('embedding batches', () => {
  it('respects both the item and the character limit, keeping order', () => {
    const texts = ['aaaa', 'bb', 'cccccc', 'd', 'e', 'f'];
    assert.deepEqual(planBatches(texts, { maxItems: 2, maxChars: 100 }), [
      ['aaaa', 'bb'],
      ['cccccc', 'd'],
      ['e', 'f'],
    ]);
    assert.deepEqual(planBatches(texts, { maxItems: 10, maxChars: 7 }), [
      ['aaaa', 'bb'],
      ['cccccc', 'd'],
      ['e', 'f'],
    ]);
    assert.deepEqual(planBatches(['x'.repeat(50), 'y'], { maxItems: 10, maxChars: 7 }), [['x'.repeat(50)], ['y']]);
  });

  it('splits a batch the service finds too large and still returns vectors in input order', async () => {
    const texts = Array.from({ length: 9 }, (_, i) => 't'.repeat(i + 1));
    const sizes: number[] = [];
    const vectors = await embedInBatches(texts, { maxItems: 100, maxChars: 1_000 }, async (batch) => {
      sizes.push(batch.length);
      if (batch.length > 2) throw new ServiceError('tooLarge', 'Payload too large', { status: 413 });
      return batch.map(vectorOf);
    });
    assert.deepEqual(
      vectors.map((v) => v[0]),
      texts.map((t) => t.length),
    );
    assert.ok(sizes.includes(9) && Math.max(...sizes.slice(1)) < 9);
  });

  it('names a single text that is too large on its own', async () => {
    await assert.rejects(
      embedInBatches(['huge text'], { maxItems: 10, maxChars: 100 }, async () => {
        throw new ServiceError('tooLarge', 'Payload too large', { status: 413 });
      }),
      (e: unknown) => e instanceof ServiceError && e.kind === 'tooLarge' && /9 characters/.test(e.message),
    );
  });
});
