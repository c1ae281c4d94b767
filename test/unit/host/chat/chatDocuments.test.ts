import * as assert from 'node:assert/strict';
import { checkFile } from '../../../../src/host/chat/attachmentCheck';
import { PendingFiles } from '../../../../src/host/chat/pendingFiles';
import { answer as answerWith, ChatUnderTest, until, useChatWithFiles } from '../../support/chatUnderTest';

const MiB = 1024 * 1024;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const NOTES = Buffer.from('Quarterly report: revenue grew by 12%.');

/** Documents attached to a chat question, and the service's limits on what one request may carry (no VS Code). */
describe('documents attached to a chat question, and the limits of a request (no VS Code)', () => {
  const t = useChatWithFiles();

  /** Attaches the files and sends them with `text`; returns once the request reached the model. */
  const ask = async (text: string, files: [string, Uint8Array][]) => {
    for (const [name, bytes] of files) assert.deepEqual(await t.pending.add(name, bytes.length, bytes), { added: true }, name);
    const requests = t.chat.client.replies.length;
    const ended = t.chat.engine.send({ text, ...(await t.pending.take(t.pending.ids)) });
    await until(() => t.chat.client.replies.length > requests, `the request for "${text}"`);
    return { ended }; // wrapped: an async function returning the promise itself would wait for the reply
  };
  const answer = (ended: Promise<void>, text = 'Read it.') => answerWith(t.chat, ended, text);

  it('takes the documents the service takes, by their name, up to its limits; refuses the rest saying which limit', () => {
    assert.deepEqual(checkFile('notes.txt', NOTES.length, NOTES), { kind: 'document', type: 'text/plain' });
    assert.deepEqual(checkFile('Slides.PPT', 3, Buffer.from('ppt')), { kind: 'document', type: 'application/vnd.ms-powerpoint' });
    assert.deepEqual(checkFile('book.epub', 41 * MiB, undefined), { refused: 'documentTooLarge' });
    assert.deepEqual(
      checkFile('report.pdf', 30 * MiB, undefined),
      { refused: 'requestTooLarge' },
      'a document under 40 MB can still not go: a request takes less than 20 MB',
    );
    assert.deepEqual(checkFile('table.xlsx', 3, Buffer.from('xls')), { refused: 'unsupportedType' });
    assert.deepEqual(checkFile('empty.docx', 0, new Uint8Array(0)), { refused: 'empty' });
  });

  it('a document waits as a chip with its type and size beside the picture; the 11th file is refused and the ten attached stay', async () => {
    assert.deepEqual(await t.pending.add('shot.png', PNG.length, PNG), { added: true });
    for (let i = 1; i <= 9; i++) assert.deepEqual(await t.pending.add(`part${i}.pdf`, NOTES.length, NOTES), { added: true });
    assert.deepEqual(await t.pending.add('part10.pdf', NOTES.length, NOTES), { refused: 'tooMany' });
    assert.deepEqual(await t.pending.add('second.png', PNG.length, PNG), { refused: 'secondPicture' });
    const chips = await t.pending.chips((name, bytes) => `${name}, ${bytes} bytes`);
    assert.equal(chips.length, 10);
    assert.equal(chips[0].picture && 'src' in chips[0].picture, true, 'the picture keeps its thumbnail');
    assert.deepEqual(
      { label: chips[1].label, title: chips[1].title, document: chips[1].document },
      { label: 'part1.pdf', title: `part1.pdf, ${NOTES.length} bytes`, document: { extension: 'pdf', bytes: NOTES.length } },
    );
    await t.pending.remove(chips[1].id);
    assert.equal((await t.pending.chips(String)).length, 9, 'removed before sending');
    assert.deepEqual(new PendingFiles(t.storage.state, t.storage.pictures).ids, t.pending.ids, 'a reload of the window keeps them');
  });

  it('a question with a document uploads it with its media type, sends its id, and shows it as a chip, also after a restart without uploading it', async () => {
    const { ended } = await ask('Summarize the report', [['report.txt', NOTES]]);
    assert.deepEqual(
      t.chat.client.uploads.map((upload) => [upload.filename, upload.contentType, upload.bytes.length]),
      [['report.txt', 'text/plain', NOTES.length]],
    );
    assert.deepEqual(t.chat.reply.request.messages.at(-1), { role: 'user', content: 'Summarize the report', attachments: ['upload-1'] });
    assert.deepEqual(t.chat.view.turns[0].documents, [{ name: 'report.txt', extension: 'txt', bytes: NOTES.length }]);
    assert.equal(t.chat.view.turns[0].images, undefined, 'a document is not drawn as a picture');
    await answer(ended);
    const regenerated = t.chat.engine.regenerate();
    await until(() => t.chat.client.replies.length === 2, 'the regenerated request');
    assert.deepEqual(t.chat.reply.request.messages.at(-1)?.attachments, ['upload-1'], 'regenerating reuses the upload');
    await answer(regenerated);

    const reopened = new ChatUnderTest(t.storage);
    await reopened.showState();
    assert.deepEqual(reopened.view.turns[0].documents, [{ name: 'report.txt', extension: 'txt', bytes: NOTES.length }]);
    assert.equal(reopened.client.uploads.length, 0, 'shown from what was saved, not uploaded again');
  });

  it("the chat's files beyond a request's limits: the oldest are left out, the newest go, and the reply says so", async () => {
    const large = Buffer.alloc(9 * MiB, 'a');
    for (const [index, text] of ['First', 'Second'].entries()) await answer((await ask(text, [[`part${index + 1}.txt`, large]])).ended);
    const { ended: third } = await ask('Third', [['part3.txt', large]]);
    const questions = t.chat.reply.request.messages.filter((message) => message.role === 'user');
    assert.deepEqual(
      questions.map((message) => [message.content, message.attachments?.length ?? 0]),
      [
        ['First', 0],
        ['Second', 1],
        ['Third', 1],
      ],
      'three documents of 9 MB are 27 MB: the first one no longer goes',
    );
    assert.equal(t.chat.view.turns.at(-1)?.notice, '1 earliest files left out');
    await answer(third);
    assert.equal(t.chat.view.turns.at(-1)?.notice, '1 earliest files left out', 'the reply keeps saying so');
    assert.deepEqual(t.chat.view.turns[0].documents?.[0]?.name, 'part1.txt', 'the question still shows its document');
  });
});
