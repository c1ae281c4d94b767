import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { ConversationStore, newConversation, titleFrom, type Conversation } from '../../src/host/chat/conversationStore';

/** An in-memory Memento that, like VS Code's, hands back a JSON copy of what was stored. */
class MemoryMemento implements vscode.Memento {
  private readonly values = new Map<string, string>();
  /** The keys written, in order, and how many characters each write stored. */
  readonly writes: { key: string; size: number }[] = [];
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, defaultValue?: T): T | undefined {
    const raw = this.values.get(key);
    return raw === undefined ? defaultValue : (JSON.parse(raw) as T);
  }
  async update(key: string, value: unknown): Promise<void> {
    const json = value === undefined ? undefined : JSON.stringify(value);
    this.writes.push({ key, size: json?.length ?? 0 });
    if (json === undefined) this.values.delete(key);
    else this.values.set(key, json);
  }
}

function conversationWith(text: string, updatedAt: number): Conversation {
  const conversation = { ...newConversation(), title: titleFrom(text), updatedAt };
  conversation.turns.push({ id: `u-${updatedAt}`, role: 'user', content: text, status: 'done' });
  return conversation;
}

describe('conversation history', () => {
  it('lists saved conversations newest first, and survives a new store on the same state (a restart)', async () => {
    const state = new MemoryMemento();
    const store = new ConversationStore(state);
    await store.save(conversationWith('first question', 1));
    await store.save(conversationWith('second question', 2));
    const reopened = new ConversationStore(state);
    assert.deepEqual(reopened.list().map((c) => c.title), ['second question', 'first question']);
    assert.equal(reopened.latest()?.title, 'second question');
  });

  it('a reply saved while it streamed (the window reloaded mid-reply) comes back stopped, with the text that arrived', async () => {
    const state = new MemoryMemento();
    const conversation = conversationWith('explain retries', 1);
    conversation.turns.push({ id: 'a-1', role: 'assistant', content: 'Retries repeat a request that', status: 'streaming' });
    await new ConversationStore(state).save(conversation);
    const reopened = new ConversationStore(state);
    for (const found of [reopened.latest(), reopened.get(conversation.id)]) {
      assert.deepEqual(found?.turns.map((turn) => [turn.status, turn.content]), [['done', 'explain retries'], ['stopped', 'Retries repeat a request that']]);
    }
  });

  it('does not keep empty chats, and deletes on request', async () => {
    const store = new ConversationStore(new MemoryMemento());
    await store.save(newConversation());
    assert.deepEqual(store.list(), []);
    const kept = conversationWith('keep me', 5);
    await store.save(kept);
    await store.delete(kept.id);
    assert.equal(store.get(kept.id), undefined);
  });

  it('ignores state of the wrong shape instead of crashing', async () => {
    const state = new MemoryMemento();
    const valid = conversationWith('valid', 3);
    await new ConversationStore(state).save(valid);
    await state.update('gigachat.conversationIndex', [{ nonsense: true }, 42, ...(state.get<unknown[]>('gigachat.conversationIndex') ?? [])]);
    const store = new ConversationStore(state);
    assert.deepEqual(store.list().map((c) => c.title), ['valid']);
    await state.update(`gigachat.conversation.${valid.id}`, 'garbage');
    assert.equal(store.get(valid.id), undefined);
    assert.equal(store.latest(), undefined);
    await state.update('gigachat.conversationIndex', 'garbage');
    assert.deepEqual(new ConversationStore(state).list(), []);
  });

  it('saving a streaming reply writes its own conversation and the small index, not the whole history', async () => {
    const state = new MemoryMemento();
    const store = new ConversationStore(state);
    for (let i = 0; i < 50; i++) await store.save(conversationWith(`question ${i} ${'long answer '.repeat(2_000)}`, i));
    const live = conversationWith('the one being written', 100);
    await store.save(live);
    state.writes.length = 0;
    live.turns.push({ id: 'a', role: 'assistant', content: 'a few words so far', status: 'streaming' });
    await store.save(live);
    assert.deepEqual(state.writes.map((write) => write.key).sort(), ['gigachat.conversationIndex', `gigachat.conversation.${live.id}`].sort());
    assert.ok(state.writes.every((write) => write.size < 10_000), `written: ${JSON.stringify(state.writes)}`);
  });

  it('history saved by the previous version under one key is moved, nothing lost', async () => {
    const state = new MemoryMemento();
    const older = conversationWith('asked last week', 1);
    const newer = conversationWith('asked yesterday', 2);
    await state.update('gigachat.conversations', [older, newer, { nonsense: true }]);
    const store = new ConversationStore(state);
    assert.deepEqual(store.list().map((c) => c.title), ['asked yesterday', 'asked last week']);
    assert.deepEqual(store.get(older.id)?.turns, older.turns);
    assert.equal(state.get('gigachat.conversations'), undefined, 'the old key is gone');
    assert.deepEqual(new ConversationStore(state).list().map((c) => c.id), [newer.id, older.id], 'and a restart finds the same');
  });

  it('keeps the 200 most recent conversations, and forgets the content of the ones it drops', async () => {
    const state = new MemoryMemento();
    const store = new ConversationStore(state);
    const first = conversationWith('the oldest', 0);
    await store.save(first);
    for (let i = 1; i <= 200; i++) await store.save(conversationWith(`question ${i}`, i));
    assert.equal(store.list().length, 200);
    assert.equal(store.get(first.id), undefined);
    assert.ok(!state.keys().includes(`gigachat.conversation.${first.id}`));
  });

  it('titles a conversation by the first line of its first message, shortened', () => {
    assert.equal(titleFrom('  How do I\nread a file?'), 'How do I');
    assert.equal(titleFrom('x'.repeat(100)).length, 58);
  });

  it('gives each conversation its own session id for the service', () => {
    assert.notEqual(newConversation().sessionId, newConversation().sessionId);
  });
});
