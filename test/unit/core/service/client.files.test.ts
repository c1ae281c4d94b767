import * as assert from 'node:assert/strict';
import { ATTACHMENTS_REFUSED, documentType, type ChatRequest } from '../../../../src/core';
import { rejectsWith, useEmulator } from '../../support/fixture';

/** A real 1×1 PNG (signature, IHDR, IDAT, IEND), so the bytes that arrive can be compared with the ones sent. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const MiB = 1024 * 1024;

const askAbout = (model: string, attachments: string[]): ChatRequest => ({
  model,
  messages: [{ role: 'user', content: 'What is wrong here?', attachments }],
});

describe('ServiceClient against the emulator: files and attachments', () => {
  const t = useEmulator({ streamChunkBytes: [1, 7], streamDelayMs: 0 });

  it('uploads a PNG as a multipart form and gets its id; the stored bytes are exactly the ones sent', async () => {
    const client = t.clientWith({ clientId: 'files-suite' });
    const info = await client.uploadFile(PNG, { filename: 'снимок "экрана".png', contentType: 'image/png' });
    assert.equal(info.object, 'file');
    assert.equal(info.bytes, PNG.length);
    assert.equal(info.filename, 'снимок "экрана".png');
    assert.equal(info.purpose, 'general');
    assert.match(String(t.emulator.requests.at(-1)?.headers['content-type']), /^multipart\/form-data; boundary=/);
    const stored = await client.fileContent(info.id);
    assert.deepEqual(Buffer.from(stored.bytes), PNG);
    assert.equal(stored.contentType, 'image/png');
  });

  it('deletes an uploaded file as the SDK does (POST /files/{id}/delete): gone for its window, never for another', async () => {
    const client = t.clientWith({ clientId: 'files-delete' });
    const { id } = await client.uploadFile(PNG, { filename: 'shot.png', contentType: 'image/png' });
    await rejectsWith(t.clientWith({ clientId: 'another-window' }).deleteFile(id), 'forbidden');
    await client.deleteFile(id);
    assert.deepEqual(
      t.emulator.requests.filter((r) => r.endpoint === 'files').map((r) => [r.method, r.path.replace(id, '{id}')]),
      [
        ['POST', '/api/v1/files/{id}/delete'],
        ['POST', '/api/v1/files/{id}/delete'],
      ],
    );
    await rejectsWith(client.fileContent(id), 'notFound');
    await client.deleteFile(id); // already gone: nothing left to delete
  });

  it('an upload whose answer was lost (502) is not sent again, which would leave a copy behind; one refused (503) is', async () => {
    t.emulator.inject({ kind: 'answerLost', status: 502 }, { endpoint: 'fileUpload' });
    await rejectsWith(t.client.uploadFile(PNG, { filename: 'shot.png', contentType: 'image/png' }), 'server');
    assert.equal(t.emulator.count('fileUpload'), 1);
    t.emulator.inject({ kind: 'status', status: 503 }, { endpoint: 'fileUpload' });
    const { id } = await t.client.uploadFile(PNG, { filename: 'shot.png', contentType: 'image/png' });
    assert.ok(id);
    assert.equal(t.emulator.count('fileUpload'), 3);
  });

  it('refuses a picture over 15 MB, or a type the service does not take, before anything is sent', async () => {
    const big = await rejectsWith(t.client.uploadFile(new Uint8Array(15 * MiB + 1), { filename: 'huge.png', contentType: 'image/png' }), 'invalidRequest');
    assert.equal(big.code, 'UPLOAD_TOO_LARGE');
    assert.match(big.message, /huge\.png is 15,728,641 bytes\. A picture may be at most 15 MB/);
    const bigger = await rejectsWith(t.client.uploadFile(new Uint8Array(20 * MiB), { filename: 'scan.tiff', contentType: 'image/tiff' }), 'invalidRequest');
    assert.match(bigger.message, /scan\.tiff is 20 MB\./);
    const type = await rejectsWith(t.client.uploadFile(PNG, { filename: 'anim.gif', contentType: 'image/gif' }), 'invalidRequest');
    assert.equal(type.code, 'UPLOAD_TYPE');
    await rejectsWith(t.client.uploadFile(new Uint8Array(0), { filename: 'empty.txt', contentType: 'text/plain' }), 'invalidRequest');
    assert.equal(t.emulator.count('fileUpload'), 0);
    assert.equal(t.emulator.count('oauth'), 0);
  });

  it('a document up to 40 MB is taken: the size limit depends on the kind of file', async () => {
    const info = await t.client.uploadFile(Buffer.alloc(16 * MiB, 'a'), { filename: 'notes.txt', contentType: 'text/plain' });
    assert.equal(info.bytes, 16 * MiB);
  });

  it('uploads each kind of document the service takes with its own media type, and a model answers about it', async () => {
    const client = t.clientWith({ clientId: 'documents' });
    const names = ['notes.txt', 'report.pdf', 'old.doc', 'new.docx', 'book.epub', 'slides.ppt', 'slides.pptx'];
    for (const name of names) {
      const contentType = documentType(name) ?? assert.fail(`${name} is a document`);
      const info = await client.uploadFile(Buffer.from('Quarterly report: revenue grew.'), { filename: name, contentType });
      assert.equal(info.filename, name);
      assert.equal((await client.fileContent(info.id)).contentType, contentType);
    }
    const notes = await client.uploadFile(Buffer.from('Quarterly report: revenue grew.'), { filename: 'notes.txt', contentType: 'text/plain' });
    // A document needs no model that sees pictures.
    const answer = (await client.chat(askAbout('GigaChat', [notes.id]))).choices[0].message.content;
    assert.match(answer, /notes\.txt \(text\/plain, 31 bytes\)/);
  });

  it("the service's limits of a request: one picture a message, at most 10 files, under 20 MB in all", async () => {
    const client = t.clientWith({ clientId: 'limits' });
    const shot = async () => (await client.uploadFile(PNG, { filename: 'shot.png', contentType: 'image/png' })).id;
    const note = async () => (await client.uploadFile(Buffer.from('note'), { filename: 'note.txt', contentType: 'text/plain' })).id;
    const two = await rejectsWith(client.chat(askAbout('GigaChat-2-Max', [await shot(), await shot()])), 'invalidRequest');
    assert.match(two.message, /only one image/);
    const notes = await Promise.all(Array.from({ length: 11 }, note));
    const eleven = await rejectsWith(client.chat(askAbout('GigaChat-2-Max', notes)), 'invalidRequest');
    assert.match(eleven.message, /at most 10 files/);
    await client.chat(askAbout('GigaChat-2-Max', [await shot(), ...notes.slice(0, 9)]));
  });

  it('a model that can see pictures gets the attachment and names it in its answer', async () => {
    const client = t.clientWith({ clientId: 'vision' });
    const info = await client.uploadFile(PNG, { filename: 'shot.png', contentType: 'image/png' });
    const answer = (await client.chat(askAbout('GigaChat-2-Max', [info.id]))).choices[0].message.content;
    assert.match(answer, new RegExp(`shot\\.png \\(image/png, ${PNG.length} bytes\\)`));
  });

  it('a picture attached for a model that cannot see pictures is an error the caller recognises, whole or streamed', async () => {
    const client = t.clientWith({ clientId: 'no-vision' });
    const info = await client.uploadFile(PNG, { filename: 'shot.png', contentType: 'image/png' });
    const whole = await rejectsWith(client.chat(askAbout('GigaChat', [info.id])), 'invalidRequest');
    assert.equal(whole.code, ATTACHMENTS_REFUSED);
    assert.equal(whole.status, 422);
    assert.match(whole.message, /GigaChat refused the attached files .*choose a model that does/);
    const streamed = await rejectsWith(
      (async () => {
        for await (const chunk of client.chatStream(askAbout('GigaChat-2', [info.id]))) assert.fail(`no chunk expected, got ${JSON.stringify(chunk)}`);
      })(),
      'invalidRequest',
    );
    assert.equal(streamed.code, ATTACHMENTS_REFUSED);
    // A 422 that is not about files keeps no such code.
    const misplaced = await rejectsWith(
      client.chat({
        model: 'GigaChat',
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'system', content: 'late' },
        ],
      }),
      'invalidRequest',
    );
    assert.equal(misplaced.code, undefined);
  });

  it("an unknown file id, or another client's file, is refused with the attachments named", async () => {
    const owner = t.clientWith({ clientId: 'owner' });
    const info = await owner.uploadFile(PNG, { filename: 'shot.png', contentType: 'image/png' });
    const unknown = await rejectsWith(owner.chat(askAbout('GigaChat-2-Pro', ['0199e20f-0000-4000-8000-000000000000'])), 'notFound');
    assert.equal(unknown.code, ATTACHMENTS_REFUSED);
    const stranger = await rejectsWith(t.clientWith({ clientId: 'stranger' }).chat(askAbout('GigaChat-2-Pro', [info.id])), 'forbidden');
    assert.equal(stranger.code, ATTACHMENTS_REFUSED);
  });

  it('counts tokens per input text, in input order, as section 10 of the contract shows', async () => {
    const counts = await t.client.countTokens(['text one', 'Привет, мир! Это второй текст.'], { model: 'GigaChat-2-Max' });
    assert.deepEqual(counts, [
      { object: 'tokens', tokens: 2, characters: 8 },
      { object: 'tokens', tokens: 8, characters: 30 },
    ]);
    await rejectsWith(t.client.countTokens(['x'], { model: 'NoSuchModel' }), 'notFound');
  });
});
