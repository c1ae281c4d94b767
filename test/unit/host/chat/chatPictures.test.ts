import * as assert from 'node:assert/strict';
import { ATTACHMENTS_REFUSED, ServiceError, type StoredPicture } from '../../../../src/core';
import { MAX_IMAGE_BYTES } from '../../../../src/serviceFacts/fileFacts';
import { checkFile } from '../../../../src/host/chat/attachmentCheck';
import { PendingFiles } from '../../../../src/host/chat/pendingFiles';
import { answer as answerWith, ChatUnderTest, openChatWithFiles, type Storage, until } from '../../support/chatUnderTest';

/** A real 1×1 PNG and the first bytes of a GIF: the type is read from the bytes, not the name. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1');

describe('pictures attached to a chat question (no VS Code)', () => {
  let storage: Storage;
  let chat: ChatUnderTest;
  let pending: PendingFiles;

  beforeEach(async () => ({ storage, chat, pending } = await openChatWithFiles()));
  afterEach(() => storage.remove());

  /** Attaches a PNG and sends it with `text`; returns once the request reached the model. */
  const askWithPictures = async (text: string) => {
    assert.deepEqual(await pending.add('shot1.png', PNG.length, PNG), { added: true });
    const { pictures } = await pending.take(pending.ids);
    const requests = chat.client.replies.length;
    const ended = chat.engine.send({ text, pictures });
    await until(() => chat.client.replies.length > requests, `the request for "${text}"`);
    return { ended, pictures: pictures as StoredPicture[] };
  };
  const answer = (ended: Promise<void>, text = 'I see it.') => answerWith(chat, ended, text);

  it('checks a picture before keeping it: the service takes JPEG, PNG, TIFF and BMP up to 15 MB', () => {
    assert.deepEqual(checkFile('shot.png', PNG.length, PNG), { kind: 'picture', type: 'image/png' });
    assert.deepEqual(checkFile('clipboard', PNG.length, PNG), { kind: 'picture', type: 'image/png' }, 'the type is read from the bytes, not the name');
    assert.deepEqual(checkFile('huge.png', MAX_IMAGE_BYTES + 1, undefined), { refused: 'pictureTooLarge' }, 'too large to have been sent: refused by its size');
    assert.deepEqual(checkFile('anim.gif', GIF.length, GIF), { refused: 'unsupportedType' });
    assert.deepEqual(checkFile('fake.png', 4, Buffer.from('%PDF')), { refused: 'unsupportedType' }, 'a file named .png that is not a picture');
    assert.deepEqual(checkFile('shot.png', 0, new Uint8Array(0)), { refused: 'empty' });
  });

  it('keeps one picture for a message (the service takes no more), shown as a chip with its thumbnail; a refused one is not stored, and the first stays', async () => {
    assert.deepEqual(await pending.add('shot1.png', PNG.length, PNG), { added: true });
    assert.deepEqual(await pending.add('second.png', PNG.length, PNG), { refused: 'secondPicture' });
    assert.deepEqual(await pending.add('anim.gif', GIF.length, GIF), { refused: 'unsupportedType' });
    const chips = await pending.chips((name, bytes) => `${name} (${bytes} bytes)`);
    assert.deepEqual(
      chips.map((chip) => [chip.label, chip.title]),
      [['shot1.png', `shot1.png (${PNG.length} bytes)`]],
    );
    assert.deepEqual(chips[0].picture, { fileId: chips[0].id, src: `memory:${chips[0].id}` });
    assert.equal(storage.pictures.stored.size, 1);
    // A reload of the window keeps them.
    assert.deepEqual(new PendingFiles(storage.state, storage.pictures).ids, pending.ids);
  });

  it('a question with a picture shows its thumbnail, uploads it once and sends its file id with it', async () => {
    const { ended, pictures } = await askWithPictures('What is wrong here?');
    assert.deepEqual(
      chat.view.turns[0].images,
      pictures.map((picture) => ({ fileId: picture.id, src: `memory:${picture.id}` })),
    );
    assert.deepEqual(
      chat.client.uploads.map((upload) => [upload.filename, upload.contentType, upload.bytes.length]),
      [['shot1.png', 'image/png', PNG.length]],
    );
    assert.deepEqual(chat.reply.request.messages.at(-1), { role: 'user', content: 'What is wrong here?', attachments: ['upload-1'] });
    await answer(ended);
    assert.equal(pending.ids.length, 0, 'the chips are used up');
  });

  it('deleting the conversation deletes its uploaded picture at the service too', async () => {
    const { ended } = await askWithPictures('What is wrong here?');
    await answer(ended);
    await chat.engine.delete(chat.engine.conversationId);
    assert.deepEqual(chat.client.deleted, ['upload-1']);
  });

  it('regenerating, editing and asking on reuse the uploaded file ids: nothing is uploaded twice', async () => {
    const first = await askWithPictures('What is wrong here?');
    await answer(first.ended);
    const regenerated = chat.engine.regenerate();
    await until(() => chat.client.replies.length === 2, 'the regenerated request');
    await answer(regenerated, 'Another look.');
    const question = chat.view.turns[0].id;
    const edited = chat.engine.edit(question, { text: 'And now?' });
    await until(() => chat.client.replies.length === 3, 'the edited request');
    assert.deepEqual(chat.reply.request.messages.at(-1), { role: 'user', content: 'And now?', attachments: ['upload-1'] }, 'the edit keeps its pictures');
    await answer(edited);
    const next = chat.engine.send({ text: 'Thanks' });
    await until(() => chat.client.replies.length === 4, 'the next request');
    assert.deepEqual(
      chat.reply.request.messages.filter((message) => message.role === 'user'),
      [
        { role: 'user', content: 'And now?', attachments: ['upload-1'] },
        { role: 'user', content: 'Thanks' },
      ],
    );
    await answer(next);
    assert.equal(chat.client.uploads.length, 1);
  });

  it('a failed upload loses nothing: the reply says why, the question keeps its pictures, and Retry uploads and asks', async () => {
    chat.client.failUploads = new ServiceError('network', 'connection reset');
    await pending.add('shot.png', PNG.length, PNG);
    await chat.engine.send({ text: 'What is wrong here?', ...(await pending.take(pending.ids)) });
    assert.deepEqual(chat.transcript, ['user: What is wrong here? (done)', 'assistant:  (error)']);
    assert.equal(chat.view.turns[1].error?.message, 'Failed: connection reset');
    assert.equal(chat.view.turns[1].notice, undefined, 'the upload notice is gone');
    assert.equal(chat.client.replies.length, 0, 'the model was not asked without the picture');
    assert.equal(chat.view.turns[0].images?.length, 1);
    chat.client.failUploads = undefined;
    const retried = chat.engine.regenerate(chat.view.turns[1].id);
    await until(() => chat.client.replies.length === 1, 'the retried request');
    assert.deepEqual(chat.reply.request.messages.at(-1)?.attachments, ['upload-1']);
    await answer(retried);
    assert.deepEqual(chat.transcript, ['user: What is wrong here? (done)', 'assistant: I see it. (done)']);
  });

  it('a picture asked about with a model that cannot see it does not go with the later questions of the chat, and the reply says so', async () => {
    chat.settings = { ...chat.settings, model: 'GigaChat' };
    const first = await askWithPictures('What is wrong here?');
    assert.deepEqual(chat.reply.request.messages.at(-1)?.attachments, ['upload-1'], 'the question answered keeps its own: a refusal is about it');
    await answer(first.ended);
    const next = chat.engine.send({ text: 'And how do I sort a list?' });
    await until(() => chat.client.replies.length === 2, 'the later question');
    assert.ok(
      chat.reply.request.messages.every((message) => message.attachments === undefined),
      'no earlier picture sent',
    );
    await answer(next, 'With sort().');
    assert.equal(chat.view.turns[3].notice, 'GigaChat: 1 earlier pictures left out');
    chat.settings = { ...chat.settings, model: 'GigaChat-2-Max' };
    const seen = chat.engine.send({ text: 'Look at it again' });
    await until(() => chat.client.replies.length === 3, 'the question with a model that sees pictures');
    assert.deepEqual(chat.reply.request.messages[1].attachments, ['upload-1'], 'a model that sees pictures gets the chat’s pictures');
    await answer(seen);
  });

  it('the reply says the pictures are being uploaded while they are', async () => {
    let release: () => void = () => undefined;
    const upload = chat.client.uploadFile.bind(chat.client);
    chat.client.uploadFile = async (bytes, options) => {
      await new Promise<void>((resolve) => (release = resolve));
      return upload(bytes, options);
    };
    await pending.add('shot.png', PNG.length, PNG);
    const ended = chat.engine.send({ text: 'Look', ...(await pending.take(pending.ids)) });
    await until(() => chat.view.turns[1]?.notice !== undefined, 'the upload notice');
    assert.equal(chat.view.turns[1].notice, 'Uploading 1 files');
    release();
    await until(() => chat.client.replies.length === 1, 'the request');
    assert.equal(chat.view.turns[1].notice, undefined);
    await answer(ended);
  });

  it('a file id the service no longer knows is uploaded again once, and the question asked again', async () => {
    const first = await askWithPictures('What is wrong here?');
    await answer(first.ended);
    const regenerated = chat.engine.regenerate();
    await until(() => chat.client.replies.length === 2, 'the regenerated request');
    chat.reply.fail(new ServiceError('notFound', "File 'upload-1' not found", { status: 404, code: ATTACHMENTS_REFUSED }));
    await until(() => chat.client.replies.length === 3, 'the request with the picture uploaded again');
    assert.deepEqual(chat.reply.request.messages.at(-1)?.attachments, ['upload-2']);
    await answer(regenerated, 'Seen again.');
    assert.deepEqual(chat.transcript.at(-1), 'assistant: Seen again. (done)');
  });

  it('after a restart the question shows its pictures from the stored copy, without uploading them', async () => {
    const { ended } = await askWithPictures('What is wrong here?');
    await answer(ended);
    const reopened = new ChatUnderTest(storage);
    await reopened.showState();
    assert.equal(reopened.view.turns[0].images?.length, 1);
    assert.match(String((reopened.view.turns[0].images?.[0] as { src: string }).src), /^memory:/);
    assert.equal(reopened.client.uploads.length, 0);
  });
});
