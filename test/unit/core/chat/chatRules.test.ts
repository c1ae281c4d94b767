import * as assert from 'node:assert/strict';
import { ChatUnderTest, Storage, until } from '../../support/chatUnderTest';

describe("the project's rules in the chat (no VS Code)", () => {
  let storage: Storage;
  let chat: ChatUnderTest;

  beforeEach(async () => {
    storage = await Storage.create();
    chat = new ChatUnderTest(storage);
    await chat.showState();
  });
  afterEach(() => storage.remove());

  const answer = async (ended: Promise<void>, text: string) => {
    await until(() => chat.client.replies.length === 1, 'the request');
    chat.reply.write(text);
    chat.reply.end();
    await ended;
  };

  it("sends the rules before the user's system prompt, and the reply names the files it followed, also after a restart", async () => {
    chat.rules = { find: async () => ({ text: "The project's rules:\n\n## AGENTS.md\nAnswer in haiku.", files: ['AGENTS.md'] }) };
    await answer(chat.engine.send({ text: 'hello' }), 'Old pond.');
    assert.deepEqual(chat.reply.messages, ["system: The project's rules:\n\n## AGENTS.md\nAnswer in haiku.\n\nBe brief.", 'user: hello']);
    assert.deepEqual(chat.view.turns[1].rules, ['AGENTS.md']);
    const saved = await storage.reopened(chat.engine.conversationId);
    assert.deepEqual(saved?.turns[1].rules, ['AGENTS.md']);
  });

  it('with no rules, sends the system prompt alone and shows no rule chips', async () => {
    await answer(chat.engine.send({ text: 'hello' }), 'Hi.');
    assert.deepEqual(chat.reply.messages, ['system: Be brief.', 'user: hello']);
    assert.equal(chat.view.turns[1].rules, undefined);
  });
});
