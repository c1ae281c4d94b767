import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { newConversation, titleFrom, type Conversation, type StoredTurn } from '../../../../src/core';
import { ConversationStore } from '../../../../src/host/chat/conversationStore';
import { MemoryMemento } from '../../support/memoryMemento';

function conversationWith(text: string, updatedAt: number): Conversation {
  const conversation = { ...newConversation(), title: titleFrom(text), updatedAt };
  conversation.turns.push({ id: `u-${updatedAt}`, role: 'user', content: text, status: 'done' });
  return conversation;
}

describe('conversation history', () => {
  let folder: string;
  let state: MemoryMemento;
  /** A store as a window opens it; a second one on the same state and folder is the window after a restart. */
  const open = () => new ConversationStore(state, folder);

  beforeEach(async () => {
    folder = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'gigachat-history-')), 'conversations');
    state = new MemoryMemento();
  });
  afterEach(() => fs.rm(path.dirname(folder), { recursive: true, force: true }));

  it('lists saved conversations newest first, and survives a restart', async () => {
    const store = open();
    await store.save(conversationWith('first question', 1));
    await store.save(conversationWith('second question', 2));
    const reopened = open();
    assert.deepEqual(
      reopened.list().map((c) => c.title),
      ['second question', 'first question'],
    );
    assert.equal((await reopened.latest())?.title, 'second question');
  });

  it('a reply saved while it streamed (the window reloaded mid-reply) comes back stopped, with the text that arrived', async () => {
    const conversation = conversationWith('explain retries', 1);
    conversation.turns.push({ id: 'a-1', role: 'assistant', content: 'Retries repeat a request that', status: 'streaming' });
    await open().save(conversation);
    const reopened = open();
    for (const found of [await reopened.latest(), await reopened.get(conversation.id)]) {
      assert.deepEqual(
        found?.turns.map((turn) => [turn.status, turn.content]),
        [
          ['done', 'explain retries'],
          ['stopped', 'Retries repeat a request that'],
        ],
      );
    }
  });

  it('saving a reply as it streams writes its own file and leaves the workspace state alone', async () => {
    const store = open();
    const conversation = conversationWith('write a long essay', 1);
    const reply: StoredTurn = { id: 'a-1', role: 'assistant', content: '', status: 'streaming' };
    conversation.turns.push(reply);
    await store.save(conversation);
    const updates = state.updates;
    for (let i = 0; i < 20; i++) {
      reply.content += 'x'.repeat(10_000);
      await store.save(conversation);
    }
    assert.equal(state.updates, updates, 'the workspace state was not written while the reply streamed');
    assert.ok(state.size() < 1_000, `the state holds the list only (${state.size()} bytes)`);
    assert.equal((await open().get(conversation.id))?.turns[1].content.length, 200_000);
  });

  it('saves land in the order asked, and a delete is not undone by a save still under way', async () => {
    const store = open();
    const conversation = conversationWith('question', 1);
    conversation.turns.push({ id: 'a-1', role: 'assistant', content: 'partial', status: 'streaming' });
    const streaming = store.save(conversation); // not awaited, as the controller saves while streaming
    conversation.turns[1] = { ...conversation.turns[1], content: 'partial and the rest', status: 'done' };
    await Promise.all([streaming, store.save(conversation)]);
    assert.deepEqual((await open().get(conversation.id))?.turns[1], { id: 'a-1', role: 'assistant', content: 'partial and the rest', status: 'done' });

    const deleted = conversationWith('delete me', 2);
    const saving = store.save(deleted);
    await store.delete(deleted.id);
    await saving;
    assert.equal(await open().get(deleted.id), undefined);
    assert.deepEqual(await fs.readdir(folder), [`${conversation.id}.json`], 'the deleted conversation’s file is gone');
  });

  it('does not keep empty chats, and deletes on request', async () => {
    const store = open();
    await store.save(newConversation());
    assert.deepEqual(store.list(), []);
    const kept = conversationWith('keep me', 5);
    await store.save(kept);
    await store.delete(kept.id);
    assert.equal(await store.get(kept.id), undefined);
    assert.deepEqual(store.list(), []);
  });

  it('keeps the 200 newest conversations, and the files of older ones go', async () => {
    const store = open();
    for (let i = 1; i <= 203; i++) await store.save(conversationWith(`question ${i}`, i));
    assert.equal(store.list().length, 200);
    assert.equal(store.list().at(-1)?.title, 'question 4');
    assert.equal((await fs.readdir(folder)).length, 200);
  });

  it('knows the pictures every stored conversation shows, for cleaning up the rest', async () => {
    const store = open();
    const conversation = conversationWith('draw a cat', 1);
    conversation.turns.push({ id: 'a-1', role: 'assistant', content: 'Here: <img src="3a1f0b6e-0000-4000-8000-000000000001" fuse="true"/>', status: 'done' });
    await store.save(conversation);
    assert.deepEqual([...open().pictureIds()], ['3a1f0b6e-0000-4000-8000-000000000001']);
  });

  it('a conversation whose file is gone or cut short leaves the list, and the others still open', async () => {
    const store = open();
    const [lost, broken, fine] = [conversationWith('lost', 1), conversationWith('broken', 2), conversationWith('fine', 3)];
    for (const conversation of [lost, broken, fine]) await store.save(conversation);
    await fs.rm(path.join(folder, `${lost.id}.json`));
    const file = path.join(folder, `${broken.id}.json`);
    await fs.writeFile(file, (await fs.readFile(file, 'utf8')).slice(0, 30));
    const reopened = open();
    assert.equal(await reopened.get(lost.id), undefined);
    assert.equal(await reopened.get(broken.id), undefined);
    assert.deepEqual(
      reopened.list().map((c) => c.title),
      ['fine'],
    );
  });

  it('a conversation that cannot be read just now stays in the list, and opens once it can', async () => {
    const store = open();
    const [older, locked] = [conversationWith('older', 1), conversationWith('locked for a moment', 2)];
    for (const conversation of [older, locked]) await store.save(conversation);
    const file = path.join(folder, `${locked.id}.json`);
    const saved = await fs.readFile(file);
    await fs.rm(file);
    await fs.mkdir(file); // reading it fails, and not because it is gone
    const reopened = open();
    await assert.rejects(reopened.get(locked.id));
    assert.equal((await reopened.latest())?.title, 'older', 'the restart opens the newest one it can read');
    assert.deepEqual(
      reopened.list().map((c) => c.title),
      ['locked for a moment', 'older'],
    );
    await fs.rmdir(file);
    await fs.writeFile(file, saved);
    assert.equal((await reopened.get(locked.id))?.title, 'locked for a moment');
  });

  it('ignores state of the wrong shape instead of crashing, and never names a file after an id it did not give', async () => {
    await state.update('gigachat.conversationIndex', [{ nonsense: true }, 42, { id: '../../escape', title: 't', updatedAt: 1, pictureIds: [] }]);
    assert.deepEqual(open().list(), []);
    await state.update('gigachat.conversationIndex', 'garbage');
    assert.deepEqual(open().list(), []);
    const outside = path.join(path.dirname(folder), 'outside.json');
    await fs.writeFile(outside, '{}');
    await assert.rejects(open().delete('../outside'));
    await fs.access(outside);
  });

  it('titles a conversation by the first line of its first message, shortened', () => {
    assert.equal(titleFrom('  How do I\nread a file?'), 'How do I');
    assert.equal(titleFrom('x'.repeat(100)).length, 58);
  });

  it('gives each conversation its own session id for the service', () => {
    assert.notEqual(newConversation().sessionId, newConversation().sessionId);
  });
});
