import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { ConversationStore, newConversation, titleFrom, type Conversation } from '../../src/host/chat/conversationStore';

/** An in-memory Memento that, like VS Code's, hands back a JSON copy of what was stored. */
class MemoryMemento implements vscode.Memento {
  private readonly values = new Map<string, string>();
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, defaultValue?: T): T | undefined {
    const raw = this.values.get(key);
    return raw === undefined ? defaultValue : (JSON.parse(raw) as T);
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, JSON.stringify(value));
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
    await state.update('gigachat.conversations', [{ nonsense: true }, 42, conversationWith('valid', 3)]);
    assert.deepEqual(new ConversationStore(state).list().map((c) => c.title), ['valid']);
    await state.update('gigachat.conversations', 'garbage');
    assert.deepEqual(new ConversationStore(state).list(), []);
  });

  it('titles a conversation by the first line of its first message, shortened', () => {
    assert.equal(titleFrom('  How do I\nread a file?'), 'How do I');
    assert.equal(titleFrom('x'.repeat(100)).length, 58);
  });

  it('gives each conversation its own session id for the service', () => {
    assert.notEqual(newConversation().sessionId, newConversation().sessionId);
  });
});
