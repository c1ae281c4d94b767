import * as assert from 'node:assert/strict';
import { estimateTokens, modelDisplayName, modelLimits, modelSeesPictures, pictureModelAmong, TokenCounter } from '../../../src/core';
import { silentLogger as silentLoggerForTests } from '../../../src/core/base/logger';

describe('modelLimits, modelSeesPictures, modelDisplayName', () => {
  it('knows the 128K context of GigaChat 2 and the 32K of the first generation', () => {
    assert.deepEqual(modelLimits('GigaChat-2-Max'), { maxInputTokens: 131_072, maxOutputTokens: 8_192 });
    assert.deepEqual(modelLimits('GigaChat-2'), { maxInputTokens: 131_072, maxOutputTokens: 8_192 });
    assert.deepEqual(modelLimits('GigaChat'), { maxInputTokens: 32_768, maxOutputTokens: 4_096 });
    assert.equal(modelLimits('Something-else').maxInputTokens, 32_768);
  });

  it("takes the user's figures over the published ones, ignoring nonsense", () => {
    assert.deepEqual(modelLimits('GigaChat-2-Pro', { 'GigaChat-2-Pro': { maxInputTokens: 65_536 } }), { maxInputTokens: 65_536, maxOutputTokens: 8_192 });
    assert.deepEqual(modelLimits('GigaChat', { GigaChat: { maxInputTokens: -5, maxOutputTokens: Number.NaN } }), {
      maxInputTokens: 32_768,
      maxOutputTokens: 4_096,
    });
  });

  it('says only GigaChat 2 Pro and Max see pictures, and names models for people', () => {
    assert.deepEqual(['GigaChat', 'GigaChat-2', 'GigaChat-2-Pro', 'GigaChat-2-Max'].map(modelSeesPictures), [false, false, true, true]);
    assert.equal(modelDisplayName('GigaChat-2-Max'), 'GigaChat 2 Max');
  });

  it('switches a question with a picture to the less costly model that sees it among those offered', () => {
    assert.equal(pictureModelAmong(['GigaChat-2', 'GigaChat-2-Pro', 'GigaChat-2-Max']), 'GigaChat-2-Pro');
    assert.equal(pictureModelAmong(['GigaChat-2', 'GigaChat-2-Max']), 'GigaChat-2-Max');
    assert.equal(pictureModelAmong([]), 'GigaChat-2-Pro', 'the list could not be had: the usual one');
  });
});

describe('TokenCounter', () => {
  it('asks the service once per text, even while the first answer is on its way', async () => {
    const asked: string[] = [];
    const counter = new TokenCounter(async (input) => {
      asked.push(...input);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return input.map((text) => ({ tokens: text.length * 2, characters: text.length }));
    }, silentLoggerForTests);
    const counts = await Promise.all([counter.tokens('GigaChat', 'hello'), counter.tokens('GigaChat', 'hello'), counter.tokens('GigaChat', 'hello')]);
    assert.deepEqual(counts, [10, 10, 10]);
    assert.equal(await counter.tokens('GigaChat', 'hello'), 10);
    assert.equal(await counter.tokens('GigaChat-2-Max', 'hello'), 10);
    assert.deepEqual(asked, ['hello', 'hello']);
    assert.equal(await counter.tokens('GigaChat', ''), 0);
  });

  it("sends the texts asked for together in one request, as VS Code's agent asks for hundreds of counts per question", async () => {
    const requests: string[][] = [];
    const counter = new TokenCounter(async (input) => {
      requests.push([...input]);
      return input.map((text) => ({ tokens: text.length, characters: text.length }));
    }, silentLoggerForTests);
    const texts = Array.from({ length: 250 }, (_, index) => `piece ${index}`);
    const counts = await Promise.all(texts.map((text) => counter.tokens('GigaChat-2', text)));
    assert.deepEqual(
      counts,
      texts.map((text) => text.length),
    );
    assert.deepEqual(
      requests.map((input) => input.length),
      [100, 100, 50],
      'three requests of at most 100 texts, not 250',
    );
    await Promise.all([counter.tokens('GigaChat-2', 'another'), counter.tokens('GigaChat-2-Max', 'another')]);
    assert.deepEqual(requests.slice(3), [['another'], ['another']], 'one request per model');
  });

  it('estimates the texts the service left out of its answer, and asks again for them next time', async () => {
    let answered = 1;
    const counter = new TokenCounter(async (input) => input.slice(0, answered).map(() => ({ tokens: 7, characters: 1 })), silentLoggerForTests);
    const [first, second] = await Promise.all([counter.tokens('GigaChat', 'one'), counter.tokens('GigaChat', 'x'.repeat(30))]);
    assert.deepEqual([first, second], [7, 10]);
    answered = 1;
    assert.equal(await counter.tokens('GigaChat', 'x'.repeat(30)), 7);
  });

  it('estimates when the service cannot answer, and asks again next time', async () => {
    let up = false;
    const counter = new TokenCounter(async (input) => {
      if (!up) throw new Error('offline');
      return input.map(() => ({ tokens: 1, characters: 1 }));
    }, silentLoggerForTests);
    const text = 'x'.repeat(30);
    assert.equal(await counter.tokens('GigaChat', text), estimateTokens(text));
    assert.equal(estimateTokens(text), 10);
    up = true;
    assert.equal(await counter.tokens('GigaChat', text), 1);
  });
});
