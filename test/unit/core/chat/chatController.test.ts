import * as assert from 'node:assert/strict';
import { ServiceError } from '../../../../src/core';
import { ChatUnderTest, settle, Storage, until } from '../../support/chatUnderTest';

describe('chat controller (no VS Code): what the user sees of a conversation', () => {
  let storage: Storage;
  let chat: ChatUnderTest;

  /** A chat in a window opened on the storage (again, after a restart), its view shown. */
  const openWindow = async () => {
    const opened = new ChatUnderTest(storage);
    await opened.showState();
    return opened;
  };

  /** Sends `text` and returns once its request reached the model, with the promise that settles when the reply has ended. */
  const ask = async (text: string): Promise<{ ended: Promise<void> }> => {
    const requests = chat.client.replies.length;
    const ended = chat.engine.send({ text });
    await until(() => chat.client.replies.length > requests, `the request for "${text}"`);
    return { ended };
  };

  /** Sends `text`, the model answers `answer`; returns once the reply has ended. */
  const askAndAnswer = async (text: string, answer: string) => {
    const { ended: sent } = await ask(text);
    chat.reply.write(answer);
    chat.reply.end();
    await sent;
  };

  beforeEach(async () => {
    storage = await Storage.create();
    chat = await openWindow();
  });
  afterEach(() => storage.remove());

  it('a message sent streams its reply into the view piece by piece, then the view is idle and the chat is saved', async () => {
    const { ended: sent } = await ask('What is a retry?');
    assert.deepEqual(chat.transcript, ['user: What is a retry? (done)', 'assistant:  (streaming)']);
    assert.equal(chat.view.busy, true);
    chat.reply.write('A retry repeats ');
    await chat.flush();
    assert.deepEqual(chat.transcript.at(-1), 'assistant: A retry repeats  (streaming)');
    chat.reply.write('a failed request.');
    await chat.flush();
    assert.deepEqual(chat.transcript.at(-1), 'assistant: A retry repeats a failed request. (streaming)');
    chat.reply.end();
    await sent;
    assert.deepEqual(chat.transcript, ['user: What is a retry? (done)', 'assistant: A retry repeats a failed request. (done)']);
    assert.equal(chat.view.busy, false);
    assert.deepEqual(chat.reply.messages, ['system: Be brief.', 'user: What is a retry?']);
    assert.deepEqual(
      { model: chat.reply.request.model, temperature: chat.reply.request.temperature, max_tokens: chat.reply.request.max_tokens },
      { model: 'GigaChat-2-Max', temperature: 0.3, max_tokens: 500 },
    );
    const saved = await storage.reopened(chat.engine.conversationId);
    assert.deepEqual(
      saved?.turns.map((turn) => [turn.role, turn.content, turn.status]),
      [
        ['user', 'What is a retry?', 'done'],
        ['assistant', 'A retry repeats a failed request.', 'done'],
      ],
    );
    assert.equal(saved?.title, 'What is a retry?');
  });

  it("a reply waiting for the account's stream says so, then shows the text; Stop ends the wait at once", async () => {
    const { ended: first } = await ask('What is a lease?');
    const turnId = chat.view.turns[1].id;
    chat.reply.waitForStream(true);
    chat.reply.waitForStream(false);
    chat.reply.write('A stream held.');
    await chat.flush();
    const shown = chat.posted.filter((message) => message.type === 'replyWaiting' || message.type === 'delta');
    assert.deepEqual(shown, [
      { type: 'replyWaiting', turnId, waiting: true },
      { type: 'replyWaiting', turnId, waiting: false },
      { type: 'delta', turnId, text: 'A stream held.' },
    ]);
    chat.reply.end();
    await first;

    const { ended: second } = await ask('And a queue?');
    chat.reply.waitForStream(true);
    chat.engine.stop();
    await second;
    assert.equal(chat.reply.aborted, true);
    assert.deepEqual(chat.transcript.at(-1), 'assistant:  (stopped)');
    assert.equal(chat.view.busy, false);
  });

  it('every turn of a conversation carries the same session id, and a new chat another one', async () => {
    await askAndAnswer('Name a colour', 'Blue.');
    await askAndAnswer('Name a fruit', 'Pear.');
    await chat.engine.newChat();
    await chat.showState();
    await askAndAnswer('Name a planet', 'Mars.');
    const [first, second, third] = chat.client.replies.map((reply) => reply.options.sessionId);
    assert.ok(first);
    assert.equal(second, first);
    assert.notEqual(third, first);
    assert.deepEqual(
      chat.client.replies[1].messages,
      ['system: Be brief.', 'user: Name a colour', 'assistant: Blue.', 'user: Name a fruit'],
      'the model hears the conversation so far',
    );
  });

  it('Stop ends the request; the reply keeps its text and reads as stopped, in the view and in the history', async () => {
    const { ended: sent } = await ask('Write a long essay');
    chat.reply.write('Retries are');
    await chat.flush();
    chat.engine.stop();
    await sent;
    assert.equal(chat.reply.aborted, true, 'the request was aborted');
    assert.deepEqual(chat.transcript.at(-1), 'assistant: Retries are (stopped)');
    assert.equal(chat.view.busy, false);
    const saved = await storage.reopened(chat.engine.conversationId);
    assert.deepEqual(saved?.turns.at(-1)?.content, 'Retries are');
    assert.equal(saved?.turns.at(-1)?.status, 'stopped');
  });

  it('Regenerate replaces the last reply with a new one; a reply no longer the last is never replaced', async () => {
    await askAndAnswer('Name a colour', 'Blue.');
    const firstReply = chat.view.turns[1].id;
    const regenerated = chat.engine.regenerate(firstReply);
    await until(() => chat.client.replies.length === 2, 'the request for another answer');
    assert.deepEqual(chat.client.replies[1].messages, ['system: Be brief.', 'user: Name a colour'], 'the old reply is not sent');
    chat.reply.write('Green.');
    chat.reply.end();
    await regenerated;
    assert.deepEqual(chat.transcript, ['user: Name a colour (done)', 'assistant: Green. (done)']);

    await askAndAnswer('Name a fruit', 'Pear.');
    await chat.engine.regenerate(chat.view.turns[1].id); // the button of a reply with a newer one after it
    assert.equal(chat.client.replies.length, 3, 'no request');
    assert.deepEqual(chat.transcript, ['user: Name a colour (done)', 'assistant: Green. (done)', 'user: Name a fruit (done)', 'assistant: Pear. (done)']);
  });

  it('Edit replaces the question and drops the turns after it; the model hears only the new question', async () => {
    await askAndAnswer('Name a colour', 'Blue.');
    await askAndAnswer('Name a fruit', 'Pear.');
    const edited = chat.engine.edit(chat.view.turns[0].id, { text: 'Name a planet' });
    await until(() => chat.client.replies.length === 3, 'the request for the edited question');
    assert.deepEqual(chat.reply.messages, ['system: Be brief.', 'user: Name a planet']);
    chat.reply.write('Mars.');
    chat.reply.end();
    await edited;
    assert.deepEqual(chat.transcript, ['user: Name a planet (done)', 'assistant: Mars. (done)']);
    const saved = await storage.reopened(chat.engine.conversationId);
    assert.equal(saved?.title, 'Name a planet', 'the chat is named after its new first question');
    assert.equal(saved?.turns.length, 2);
  });

  it('editing the question of a reply still streaming stops that reply first, and answers the edit instead', async () => {
    await ask('Write a long poem');
    chat.reply.write('Roses are');
    await chat.flush();
    const long = chat.reply;
    const edited = chat.engine.edit(chat.view.turns[0].id, { text: 'Write a haiku' });
    await until(() => chat.client.replies.length === 2, 'the request for the edit');
    assert.equal(long.aborted, true, 'the long reply was stopped');
    chat.reply.write('An old silent pond.');
    chat.reply.end();
    await edited;
    assert.deepEqual(chat.transcript, ['user: Write a haiku (done)', 'assistant: An old silent pond. (done)'], 'the long reply is gone, not kept as stopped');
    assert.equal(chat.view.busy, false);
  });

  it('a failed reply shows what the error describer says, and the view is idle again', async () => {
    const { ended: sent } = await ask('Hello');
    chat.reply.write('Hel');
    chat.reply.fail(new ServiceError('server', 'upstream broke', { status: 500 }));
    await sent;
    const reply = chat.view.turns.at(-1);
    assert.equal(reply?.status, 'error');
    assert.deepEqual(reply?.error, { kind: 'server', message: 'Failed: upstream broke', actions: ['retry'], requestId: undefined });
    assert.equal(chat.view.busy, false);
    assert.equal((await storage.reopened(chat.engine.conversationId))?.turns.at(-1)?.status, 'error');
  });

  it('a message sent while a reply streams shows at once, waits, and is answered once that reply ends (which is not cut short)', async () => {
    const { ended: first } = await ask('Write a long essay');
    chat.reply.write('Part one.');
    await chat.flush();
    await chat.engine.send({ text: 'Explain const answer = 42;', contextLabel: 'app.ts:1' });
    assert.deepEqual(chat.transcript.slice(-2), ['assistant: Part one. (streaming)', 'user: Explain const answer = 42; (done)']);
    assert.equal(chat.client.replies.length, 1, 'not asked yet');
    chat.reply.write(' Part two.');
    chat.reply.end();
    await first;
    await until(() => chat.client.replies.length === 2, 'the waiting message asked');
    assert.equal(chat.view.busy, true, 'not idle in between');
    assert.equal(chat.reply.messages.at(-1), 'user: Explain const answer = 42;');
    chat.reply.write('It exports 42.');
    chat.reply.end();
    await until(() => !chat.view.busy, 'the view idle');
    assert.deepEqual(chat.transcript, [
      'user: Write a long essay (done)',
      'assistant: Part one. Part two. (done)',
      'user: Explain const answer = 42; (done)',
      'assistant: It exports 42. (done)',
    ]);
  });

  it('after a restart the last conversation comes back; a reply saved while it streamed reads as stopped, with the text that arrived', async () => {
    await askAndAnswer('Name a colour', 'Blue.');
    await ask('Write a long essay');
    chat.reply.write('Retries are');
    await settle();
    chat.clock.advance(2000); // the reply is saved at most two seconds after its text arrived
    chat.reply.write(' useful.');
    await settle();
    chat.clock.advance(2000);
    const id = chat.engine.conversationId;
    await until(async () => (await storage.reopened(id))?.turns.at(-1)?.content === 'Retries are useful.', 'the streaming reply saved');
    // The window closes while the reply streams: the next one reads the storage as it is.
    chat = await openWindow();
    assert.equal(chat.engine.conversationId, id);
    assert.deepEqual(chat.transcript, [
      'user: Name a colour (done)',
      'assistant: Blue. (done)',
      'user: Write a long essay (done)',
      'assistant: Retries are useful. (stopped)',
    ]);
    assert.equal(chat.view.busy, false);
  });

  it('a reply whose stream stalls is saved as far as it came, without waiting for more text', async () => {
    await ask('Write a long essay');
    chat.reply.write('Retries are useful.');
    await settle();
    const id = chat.engine.conversationId;
    // No more text comes: the stream hangs. The text on screen is saved anyway, two seconds after it arrived.
    chat.clock.advance(2000);
    await until(async () => (await storage.reopened(id))?.turns.at(-1)?.content === 'Retries are useful.', 'the stalled reply saved');
    chat = await openWindow();
    assert.deepEqual(chat.transcript.at(-1), 'assistant: Retries are useful. (stopped)');
  });

  it('moving to another chat while a reply streams: no piece of it reaches the other chat, and the first keeps what arrived', async () => {
    const { ended: sent } = await ask('Write a long essay');
    chat.reply.write('Retries are');
    await chat.flush();
    const first = chat.engine.conversationId;
    const replyId = chat.view.turns[1].id;
    await chat.engine.newChat();
    await chat.showState();
    const postedBefore = chat.posted.length;
    chat.reply.write(' useful.');
    await chat.flush();
    await sent;
    const aboutTheReply = chat.posted
      .slice(postedBefore)
      .filter((message) => ('turnId' in message && message.turnId === replyId) || ('turn' in message && message.turn.id === replyId));
    assert.deepEqual(aboutTheReply, []);
    assert.deepEqual(chat.transcript, []);
    assert.equal(chat.view.busy, false);
    const saved = await storage.reopened(first);
    assert.deepEqual([saved?.turns.at(-1)?.content, saved?.turns.at(-1)?.status], ['Retries are', 'stopped']);
  });

  it('a chat grown too long for the model is answered without its earliest messages, says how many, and the next reply starts there', async () => {
    await askAndAnswer('Write a very long essay', 'Essay.');
    await askAndAnswer('Short question one', 'One.');
    const { ended } = await ask('Short question two');
    chat.reply.fail(new ServiceError('tooLarge', 'Request Entity Too Large', { status: 413 }));
    await until(() => chat.client.replies.length === 4, 'the request asked again, shorter');
    assert.deepEqual(chat.reply.messages, ['system: Be brief.', 'user: Short question one', 'assistant: One.', 'user: Short question two']);
    chat.reply.write('Two.');
    chat.reply.end();
    await ended;
    assert.equal(chat.view.turns.at(-1)?.omittedMessages, 2, 'the reply says the model did not see the first two messages');
    await askAndAnswer('Short question three', 'Three.');
    assert.equal(chat.client.replies.length, 5, 'not refused first');
    assert.equal(chat.reply.messages[1], 'user: Short question one');
    assert.equal(chat.view.turns.at(-1)?.omittedMessages, undefined, 'said once');
    assert.equal(chat.transcript.length, 8, 'every message is still shown');
  });

  it('deleting the conversation a reply is written to removes it for good: its last save does not bring it back', async () => {
    await askAndAnswer('Keep me', 'Kept.');
    await chat.engine.newChat();
    await chat.showState();
    const { ended: sent } = await ask('Delete me while you write');
    chat.reply.write('Soon gone');
    const deleted = chat.engine.conversationId;
    await chat.engine.delete(deleted);
    await sent;
    await settle();
    assert.deepEqual(
      chat.engine.history().map((conversation) => conversation.title),
      ['Keep me'],
    );
    assert.equal(await storage.reopened(deleted), undefined, 'not in the storage either');
  });
});
