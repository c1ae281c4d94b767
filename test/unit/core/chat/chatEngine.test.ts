import * as assert from 'node:assert/strict';
import type { ChatEvent } from '../../../../src/core';
import { ChatUnderTest, Storage, until } from '../../support/chatUnderTest';

/** An event as the test reads it: its type, and whose turn it is about. */
function described(event: ChatEvent): string {
  if (event.type === 'busy') return `busy ${event.busy}`;
  if (event.type === 'redraw') return 'redraw';
  return `${event.type} ${event.turn.role}`;
}

describe('the chat engine alone (no view): the events it tells', () => {
  let storage: Storage;
  let chat: ChatUnderTest;
  let events: ChatEvent[];

  beforeEach(async () => {
    storage = await Storage.create();
    chat = new ChatUnderTest(storage);
    await chat.engine.current();
    events = [];
    // In place of the view adapter: what another surface (@gigachat) would hear.
    chat.engine.listen((event) => void events.push(event));
  });
  afterEach(() => storage.remove());

  it('a message sent is told as its question, the reply started, grown piece by piece, ended and final, then idle', async () => {
    const ended = chat.engine.send({ text: 'What is a retry?' });
    await until(() => chat.client.replies.length === 1, 'the request');
    const grown = () => events.filter((event) => event.type === 'replyGrew').length;
    chat.reply.write('A retry ');
    await until(() => grown() === 1, 'the first piece told');
    chat.reply.write('repeats a request.');
    await until(() => grown() === 2, 'the second piece told');
    chat.reply.end();
    await ended;
    // Each piece is told as it arrives (the last event of the stream, its finish, is one too).
    const told = events.map(described).filter((event, index, all) => event !== 'replyGrew assistant' || all[index - 1] !== event);
    assert.deepEqual(told, [
      'turnAdded user',
      'replyStarted assistant',
      'busy true',
      'turnAdded assistant',
      'replyGrew assistant',
      'replyStreamEnded assistant',
      'turnChanged assistant',
      'busy false',
    ]);
    const final = events.at(-2);
    assert.ok(final?.type === 'turnChanged');
    // The engine's own turn, as stored: the view's shapes are the adapter's business.
    assert.deepEqual([final.turn.content, final.turn.status], ['A retry repeats a request.', 'done']);
    assert.equal(final.conversation.id, chat.engine.conversationId);
  });

  it('two prompts sent together (Explain asked twice before the panel opened) are answered in the order they came', async () => {
    const both = Promise.all([chat.engine.send({ text: 'First question' }), chat.engine.send({ text: 'Second question' })]);
    await until(() => chat.client.replies.length === 1, 'the first request');
    chat.reply.write('First answer.');
    chat.reply.end();
    await until(() => chat.client.replies.length === 2, 'the second request');
    chat.reply.write('Second answer.');
    chat.reply.end();
    await both;
    await until(() => !chat.engine.busy, 'the engine idle');
    const turns = (await chat.engine.current()).turns.map((turn) => `${turn.role}: ${turn.content}`);
    assert.deepEqual(turns, ['user: First question', 'assistant: First answer.', 'user: Second question', 'assistant: Second answer.']);
  });
});
