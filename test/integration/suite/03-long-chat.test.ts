import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chatView, ensureKey, productLog, productWorkspaceStorage, until } from '../drivers';
import { hasOuterRunner } from '../outer';

interface StoredConversation {
  id: string;
  title: string;
  turns: { id: string; role: 'user' | 'assistant'; content: string; status: string }[];
}

/**
 * Conversations larger than one message to the view may be: the chat shows them (the newest page,
 * earlier pages as the user asks for them, a reply too long to show cut), and the next question
 * goes to the chat shown. Such conversations are written into the product's storage, as a long
 * history would have grown there, and opened from History while another chat is shown.
 */
describe('chat view: a conversation too large for one message', function () {
  this.timeout(120_000);

  before(async function () {
    if (!hasOuterRunner()) this.skip();
    await ensureKey();
  });

  after(async () => {
    if (hasOuterRunner()) await chatView.newChat();
  });

  /** The stored conversation whose title starts with `title`. */
  async function stored(title: string): Promise<{ file: string; conversation: StoredConversation }> {
    const conversations = path.join(await productWorkspaceStorage(), 'conversations');
    for (const name of fs.readdirSync(conversations)) {
      const file = path.join(conversations, name);
      const conversation = JSON.parse(fs.readFileSync(file, 'utf8')) as StoredConversation;
      if (conversation.title.startsWith(title)) return { file, conversation };
    }
    throw new Error(`no stored conversation is titled ${title}`);
  }

  const otherChat = (title: string) => `Shown before: ${title}`;

  /** A chat asked once through the view, then given `turns` on disk, while another chat is shown. */
  async function storedChat(title: string, turns: (first: StoredConversation['turns'][number]) => StoredConversation['turns']): Promise<StoredConversation> {
    await chatView.newChat();
    await chatView.ask(title);
    await chatView.newChat();
    await chatView.ask(otherChat(title));
    const { file, conversation } = await stored(title);
    conversation.turns = turns(conversation.turns[0]);
    fs.writeFileSync(file, JSON.stringify(conversation));
    return conversation;
  }

  async function openFromHistory(title: string): Promise<void> {
    await chatView.click('button[aria-label="Chat history"]');
    await chatView.click(`.history-open[aria-label="Open chat: ${title}"]`);
  }

  /** Asks a question in the chat shown, and checks it went to `title`'s conversation, on screen and on disk. */
  async function askInto(title: string, question: string): Promise<void> {
    const before = await chatView.count('.turn-assistant');
    await chatView.type(question);
    await chatView.press('Enter');
    await chatView.waitForReply(before);
    assert.equal((await chatView.textContents('.turn-user .user-text')).at(-1), question, 'the question shows last in the chat shown');
    const turnsOf = async (chat: string) => (await stored(chat)).conversation.turns.map((turn) => turn.content);
    await until(async () => (await turnsOf(title)).includes(question), `the question saved in "${title}"`);
    assert.equal((await turnsOf(title)).at(-2), question);
    assert.ok(!(await turnsOf(otherChat(title))).includes(question), 'not in the chat shown before');
  }

  it('a stored conversation of 2,500 turns opens with its newest turns, shows earlier ones when asked, and the next question lands in it', async () => {
    const title = 'Chat of 2,500 turns';
    await storedChat(title, (first) =>
      Array.from({ length: 2_500 }, (_, i) => ({
        id: `long-${i}`,
        role: i % 2 === 0 ? 'user' : 'assistant',
        content: i === 0 ? first.content : i % 2 === 0 ? `Stored question ${i}` : `Stored reply ${i}`,
        status: 'done',
      })),
    );
    const logBefore = (await productLog()).length;
    await openFromHistory(title);
    await chatView.waitForText('.turn-assistant:last-child .turn-body', 'Stored reply 2499');
    assert.ok(!(await chatView.textContents('.turn-user .user-text')).includes(otherChat(title)), 'the chat shown before is gone');
    assert.equal(await chatView.count('.turn'), 100, 'the newest page');
    await chatView.waitForText('.load-earlier', 'Show earlier messages (2,400)');

    await chatView.scrollTo('.scroller', 0);
    await until(async () => (await chatView.count('.turn')) === 200, 'the page before, put in above');
    assert.equal((await chatView.textContents('.turn-user .user-text'))[0], 'Stored question 2300');
    await chatView.waitForText('.load-earlier', 'Show earlier messages (2,300)');
    assert.equal(await chatView.count('.turn'), 200, 'what was on screen stayed there: no further page was asked for');

    await askInto(title, 'A next question, for the chat of 2,500 turns');
    assert.ok(!(await productLog()).slice(logBefore).includes('could not read a message'), 'the view read every message');
  });

  it('a stored reply of 2,000,001 characters is shown cut, says so, and the next question lands in its chat', async () => {
    const title = 'Chat with a reply of 2,000,001 characters';
    const paragraph = `${'word '.repeat(199)}word\n\n`; // 1,001 characters: a reply of many paragraphs, as a model writes
    const long = paragraph.repeat(1_998) + 'x'.repeat(2_000_001 - paragraph.length * 1_998);
    assert.equal(long.length, 2_000_001);
    await storedChat(title, (first) => [first, { id: 'long-reply', role: 'assistant', content: long, status: 'done' }]);
    await openFromHistory(title);
    await chatView.waitForText('.turn-assistant:last-child .note-cut', 'characters are shown', 60_000);
    const [note] = await chatView.textContents('.turn-assistant:last-child .note-cut');
    assert.match(note, /2,000,000 of its 2,000,001 characters are shown/);
    assert.equal(await chatView.count('.turn-assistant:last-child .copy-reply'), 1, 'Copy reply gives the whole of it');
    await askInto(title, 'A next question, after the long reply');
  });
});
