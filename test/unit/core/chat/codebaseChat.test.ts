import * as assert from 'node:assert/strict';
import { codebaseSources, codebaseText, CodebaseUnavailable, type FoundContext, type StoredTurn } from '../../../../src/core';
import { ChatUnderTest, Storage, until } from '../../support/chatUnderTest';

describe('codebase context in the chat (no VS Code): a question answered from the workspace', () => {
  let storage: Storage;
  let chat: ChatUnderTest;
  const searched: { question: string; conversationTokens: number }[] = [];
  const retry = { source: { file: 'src/retry.ts', first: 3, last: 9 }, quoted: 'src/retry.ts:3-9\n```ts\nexport function retry() {}\n```' };
  const cache = { source: { file: 'src/cache.ts', first: 1, last: 4 }, quoted: 'src/cache.ts:1-4\n```ts\nexport const cache = new Map();\n```' };
  const found: FoundContext = { intro: 'Use these:', passages: [retry, cache], outro: 'Question:', notice: 'Indexing is still running.' };
  const context = `Use these:\n\n${retry.quoted}\n\n${cache.quoted}\n\nQuestion:`;
  const sources = [retry.source, cache.source];

  beforeEach(async () => {
    storage = await Storage.create();
    chat = new ChatUnderTest(storage);
    await chat.showState();
    searched.length = 0;
    chat.codebase = {
      find: (question, room) => {
        searched.push({ question, conversationTokens: room.conversationTokens });
        return Promise.resolve(found);
      },
    };
  });
  afterEach(() => storage.remove());

  const answer = async (ended: Promise<void>, text: string, requests = 1) => {
    await until(() => chat.client.replies.length === requests, 'the request');
    chat.reply.write(text);
    chat.reply.end();
    await ended;
  };

  it('the passages go before the question to the model; the question shows the question as typed, its sources and the notice', async () => {
    await answer(chat.engine.send({ text: '#codebase how are retries counted?', codebase: true }), 'See src/retry.ts:3-9.');
    assert.deepEqual(
      searched.map((search) => search.question),
      ['how are retries counted?'],
      'searched without #codebase',
    );
    assert.deepEqual(chat.reply.messages, ['system: Be brief.', `user: ${context}\n\n#codebase how are retries counted?`]);
    const question = chat.view.turns[0];
    assert.equal(question.content, '#codebase how are retries counted?');
    assert.deepEqual(question.sources, sources);
    assert.equal(question.notice, found.notice);
    const saved = await storage.reopened(chat.engine.conversationId);
    assert.deepEqual(saved?.turns[0].codebase?.found?.passages, [retry, cache], 'kept with the chat');
  });

  it('Regenerate answers from the passages found the first time, without searching again', async () => {
    await answer(chat.engine.send({ text: 'where is the cache?', codebase: true }), 'Here.');
    await answer(chat.engine.regenerate(chat.view.turns[1].id), 'There.', 2);
    assert.equal(searched.length, 1);
    assert.ok(chat.reply.messages[1].includes(context));
  });

  it('the conversation so far counts against the room for passages', async () => {
    await answer(chat.engine.send({ text: 'first question without context' }), 'x'.repeat(3000));
    await answer(chat.engine.send({ text: 'and now with context', codebase: true }), 'ok', 2);
    assert.ok(searched[0].conversationTokens >= 1000, `counted ${searched[0].conversationTokens} tokens`);
  });

  it('a question without codebase context searches nothing', async () => {
    await answer(chat.engine.send({ text: 'plain question' }), 'ok');
    assert.equal(searched.length, 0);
    assert.equal(chat.view.turns[0].sources, undefined);
  });

  it('when the workspace cannot be searched yet, nothing goes to the model: the reply says why, with the button; after it, Retry finds the passages', async () => {
    let allowed = false;
    chat.codebase = {
      find: () =>
        allowed
          ? Promise.resolve(found)
          : Promise.reject(new CodebaseUnavailable({ kind: 'codebase', message: 'Indexing was not allowed yet.', actions: ['allowIndexing'] })),
    };
    await chat.engine.send({ text: 'where is the cache?', codebase: true });
    assert.equal(chat.client.replies.length, 0, 'no request');
    const reply = chat.view.turns[1];
    assert.equal(reply.status, 'error');
    assert.deepEqual(reply.error, { kind: 'codebase', message: 'Indexing was not allowed yet.', actions: ['allowIndexing'] });
    allowed = true;
    await answer(chat.engine.regenerate(reply.id), 'Found it.');
    assert.ok(chat.reply.messages[1].includes(context));
    assert.deepEqual(chat.view.turns[0].sources, sources);
  });

  it('a passage taken out of the last question is answered again without it, and the question no longer shows it', async () => {
    await answer(chat.engine.send({ text: 'where is the cache?', codebase: true }), 'In both.');
    const question = chat.view.turns[0];
    await answer(chat.engine.removeSource(question.id, retry.source), 'In cache.ts.', 2);
    assert.equal(searched.length, 1, 'not searched again');
    assert.deepEqual(chat.reply.messages[1], `user: Use these:\n\n${cache.quoted}\n\nQuestion:\n\nwhere is the cache?`);
    assert.deepEqual(chat.view.turns[0].sources, [cache.source]);
    assert.deepEqual(chat.transcript, ['user: where is the cache? (done)', 'assistant: In cache.ts. (done)']);
    assert.deepEqual((await storage.reopened(chat.engine.conversationId))?.turns[0].codebase?.found?.passages, [cache]);

    await answer(chat.engine.send({ text: 'and the retries?' }), 'Elsewhere.', 3);
    await chat.engine.removeSource(question.id, cache.source);
    assert.equal(chat.client.replies.length, 3, 'an earlier question is not asked again: a newer reply would be lost');
    assert.deepEqual(chat.view.turns[0].sources, [cache.source]);
  });

  it('a question whose kept passages are damaged (a hand-edited file) is asked as it is, showing none', () => {
    const damaged = {
      id: 'q',
      role: 'user',
      content: 'q',
      status: 'done',
      codebase: { found: { intro: 'i', passages: 'junk', outro: 'o' } },
    } as unknown as StoredTurn;
    assert.equal(codebaseText(damaged.codebase?.found), '');
    assert.deepEqual(codebaseSources(damaged), []);
  });
});
