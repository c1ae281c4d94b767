import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { chatView, emulator, ensureKey, until, workbench } from '../drivers';
import { hasOuterRunner } from '../outer';

/** Each failure the user can meet: the message they read and the button that fixes it. */
const CASES = [
  { fault: { kind: 'status', status: 402 }, message: /run out of tokens/, action: 'Open GigaChat Studio' },
  { fault: { kind: 'status', status: 403 }, message: /denied access/, action: 'Scope setting' },
  { fault: { kind: 'status', status: 429 }, times: 10, message: /same authorization key/, action: 'Retry' },
  { fault: { kind: 'status', status: 503 }, times: 10, message: /problem on its side/, action: 'Retry' },
  { fault: { kind: 'malformedJson' }, message: /could not read/, action: 'Show logs' },
  { fault: { kind: 'truncatedStream' }, message: /stopped before it was complete/, action: 'Retry' },
  { fault: { kind: 'resetMidStream', afterEvents: 2 }, message: /broke while the reply was arriving/, action: 'Check connection' },
];

describe('errors in the chat', function () {
  this.timeout(120_000);

  before(async function () {
    if (!hasOuterRunner()) this.skip();
    await ensureKey();
    await chatView.newChat();
  });

  afterEach(() => emulator.clearFaults());

  for (const { fault, times, message, action } of CASES) {
    it(`${fault.kind}${'status' in fault ? ` ${fault.status}` : ''}: says what happened and offers "${action}"`, async () => {
      await emulator.inject(fault, { endpoint: 'chat', times: times ?? 1 });
      await chatView.ask(`Trigger ${fault.kind}`);
      await chatView.waitFor('.turn-assistant:last-child .turn-error');
      const [text] = await chatView.texts('.turn-assistant:last-child .turn-error');
      assert.match(text, message);
      assert.doesNotMatch(text, /[0-9a-f]{8}-[0-9a-f]{4}-/, 'the request id waits under Details');
      const [requestId] = await chatView.textContents('.turn-assistant:last-child .turn-error .request-id');
      assert.match(requestId, /[0-9a-f]{8}-[0-9a-f]{4}-/, 'the request id is there for a support request');
      const buttons = await chatView.texts('.turn-assistant:last-child .turn-error button');
      assert.ok(buttons.includes(action), `buttons: ${buttons.join(', ')}`);
    });
  }

  it('a rate limit that asks to wait longer than the retries wait says how long, and Retry waits too', async () => {
    await emulator.inject({ kind: 'status', status: 429, retryAfterSeconds: 90 }, { endpoint: 'chat', times: 10 });
    await chatView.ask('Trigger a long wait');
    await chatView.waitFor('.turn-assistant:last-child .turn-error');
    const [text] = await chatView.texts('.turn-assistant:last-child .turn-error');
    assert.match(text, /asks to wait 90 seconds/);
    const [disabled] = await chatView.properties<boolean>('.turn-assistant:last-child [data-error-action="retry"]', 'disabled');
    assert.equal(disabled, true, 'Retry is not offered before the wait is over');
  });

  it('a refused token says the key was not accepted and offers to set it again', async () => {
    await emulator.inject({ kind: 'status', status: 401 }, { endpoint: 'chat', times: 2 });
    await chatView.ask('Trigger 401');
    await chatView.waitFor('.turn-assistant:last-child .turn-error');
    const [text] = await chatView.texts('.turn-assistant:last-child .turn-error');
    assert.match(text, /did not accept the authorization key/);
    assert.ok((await chatView.texts('.turn-assistant:last-child .turn-error button')).includes('Set authorization key'));
  });

  it('Retry after an error gets the answer, and the conversation goes on', async () => {
    await emulator.inject({ kind: 'status', status: 500 }, { endpoint: 'chat', times: 10 });
    await chatView.ask('Will this work later?');
    await chatView.waitFor('.turn-assistant:last-child .turn-error');
    await emulator.clearFaults();
    await chatView.click('.turn-assistant:last-child [data-error-action="retry"]');
    await chatView.waitForText('.turn-assistant:last-child .turn-body', 'You asked: "Will this work later?"', 30_000);
    assert.equal(await chatView.count('.turn-assistant:last-child .turn-error'), 0);
    await workbench.screenshot('chat-after-errors');
  });

  it('an expired token mid-conversation is renewed without any visible error', async () => {
    await emulator.expireAllTokens();
    await chatView.ask('Still there after the token expired?');
    await chatView.waitForText('.turn-assistant:last-child .turn-body', 'Still there after the token expired?');
    assert.equal(await chatView.count('.turn-assistant:last-child .turn-error'), 0);
  });
});

/** A real 1×1 PNG, as a screenshot in the clipboard would be (smaller). */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PNG_BYTES = Buffer.from(PNG_BASE64, 'base64').length;
/** A short text document, as a file copied in a file manager would be pasted. */
const NOTES_BASE64 = Buffer.from('Meeting notes: ship the release on Friday.').toString('base64');
const NOTES_BYTES = Buffer.from(NOTES_BASE64, 'base64').length;

describe('pictures and documents in the chat: sent, refused before upload, refused by the model', function () {
  this.timeout(120_000);
  const settings = () => vscode.workspace.getConfiguration('gigachat');

  before(async function () {
    if (!hasOuterRunner()) this.skip();
    await ensureKey();
    await settings().update('model', 'GigaChat-2-Pro', vscode.ConfigurationTarget.Global);
    await chatView.newChat();
  });
  after(() => settings().update('model', undefined, vscode.ConfigurationTarget.Global));

  it("a pasted picture shows as a chip with its thumbnail, is uploaded and sent as the question's attachment, and stays in the question", async () => {
    await emulator.resetCounts();
    await chatView.pastePicture({ name: 'shot.png', type: 'image/png', base64: PNG_BASE64 });
    await chatView.waitFor('.attachment-chip .chip-thumbnail');
    await until(async () => (await chatView.properties<number>('.chip-thumbnail', 'naturalWidth'))[0] === 1, 'the thumbnail drawn');
    await chatView.ask('What is wrong here?');
    await chatView.waitForText('.turn-assistant .turn-body', `shot.png (image/png, ${PNG_BYTES} bytes)`);
    const requests = await emulator.requests();
    assert.equal(requests.filter((request) => request.endpoint === 'fileUpload').length, 1);
    const chat = requests.filter((request) => request.endpoint === 'chat');
    const question = chat[0].chat!.messages.at(-1);
    assert.equal(question?.content, 'What is wrong here?');
    assert.equal(question?.attachments?.length, 1);
    assert.equal(await chatView.count('.attachment-chip'), 0, 'the chip went with the message');
    await until(async () => (await chatView.properties<number>('.turn-user .question-pictures img', 'naturalWidth'))[0] === 1, "the question's thumbnail");
    await workbench.screenshot('chat-picture-question');
  });

  it('a document attached: its chip shows its name, it is uploaded as text/plain, the reply names it, and the question keeps its chip', async () => {
    await emulator.resetCounts();
    await chatView.pastePicture({ name: 'notes.txt', type: 'text/plain', base64: NOTES_BASE64 });
    await chatView.waitForText('.attachment-chip .document-name', 'notes.txt');
    assert.match((await chatView.texts('.attachment-chip .document-meta'))[0] ?? '', /^TXT · /);
    await chatView.ask('Summarize the notes');
    await chatView.waitForText('.turn-assistant:last-child .turn-body', `notes.txt (text/plain, ${NOTES_BYTES} bytes)`);
    const uploads = (await emulator.requests()).filter((request) => request.endpoint === 'fileUpload');
    assert.equal(uploads.length, 1, 'the document, once (the earlier picture was uploaded already)');
    assert.equal(await chatView.count('.attachment-chip'), 0, 'the chip went with the message');
    assert.deepEqual(await chatView.texts('.turn-user .question-documents .document-name'), ['notes.txt'], 'only the question it went with shows it');
  });

  it('a second picture is refused before any upload, saying one picture goes with a message, and the first stays', async () => {
    await emulator.resetCounts();
    await chatView.pastePicture({ name: 'shot.png', type: 'image/png', base64: PNG_BASE64 });
    await chatView.waitFor('.attachment-chip .chip-thumbnail');
    await chatView.pastePicture({ name: 'second.png', type: 'image/png', base64: PNG_BASE64 });
    await chatView.waitForText('.attachment-refusals', 'second.png is not attached: GigaChat takes one picture per message');
    assert.equal(await chatView.count('.attachment-chip'), 1);
    assert.equal(await emulator.count('fileUpload'), 0);
    await chatView.click('.attachment-chip .remove-attachment');
    await until(async () => (await chatView.count('.attachment-chip')) === 0, 'the picture taken out');
  });

  it('a picture over 15 MB is refused before any upload, and the message by the input names the limit', async () => {
    await emulator.resetCounts();
    await chatView.pastePicture({ name: 'huge.png', type: 'image/png', size: 15 * 1024 * 1024 + 1 });
    await chatView.waitForText('.attachment-refusals', 'huge.png is not attached');
    assert.match((await chatView.texts('.attachment-refusals'))[0] ?? '', /larger than 15 MB/);
    assert.equal(await chatView.count('.attachment-chip'), 0);
    assert.equal(await emulator.count('fileUpload'), 0);
  });

  it('a model that cannot see pictures is explained, and its button switches to one that does and asks again', async () => {
    await settings().update('model', 'GigaChat', vscode.ConfigurationTarget.Global);
    await chatView.newChat();
    await chatView.pastePicture({ name: 'shot.png', type: 'image/png', base64: PNG_BASE64 });
    await chatView.waitFor('.attachment-chip .chip-thumbnail');
    await chatView.ask('And this one?');
    await chatView.waitForText('.turn-error', 'The model GigaChat cannot see pictures');
    await chatView.click('.turn-error [data-error-action="useVisionModel"]');
    await until(() => settings().get('model') === 'GigaChat-2-Pro', 'a model that sees pictures selected');
    await chatView.waitForText('.turn-assistant .turn-body', `shot.png (image/png, ${PNG_BYTES} bytes)`, 30_000);
    assert.equal(await chatView.count('.turn-error'), 0);
  });
});
