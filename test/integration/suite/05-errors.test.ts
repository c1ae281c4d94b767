import * as assert from 'node:assert/strict';
import { chatView, emulator, ensureKey, workbench } from '../drivers';
import { hasOuterRunner } from '../outer';

/** Each failure the user can meet: the message they read and the button that fixes it. */
const CASES = [
  { fault: { kind: 'status', status: 402 }, message: /run out of tokens/, action: 'Open GigaChat Studio' },
  { fault: { kind: 'status', status: 403 }, message: /denied access/, action: 'Open settings' },
  { fault: { kind: 'status', status: 429 }, times: 10, message: /too many requests/, action: 'Retry' },
  { fault: { kind: 'status', status: 503 }, times: 10, message: /problem on its side/, action: 'Retry' },
  { fault: { kind: 'malformedJson' }, message: /could not read/, action: 'Show logs' },
  { fault: { kind: 'truncatedStream' }, message: /could not read/, action: 'Retry' },
  { fault: { kind: 'resetMidStream', afterEvents: 2 }, message: /Could not connect/, action: 'Retry' },
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
      assert.match(text, /[0-9a-f]{8}-[0-9a-f]{4}-/, 'the request id is shown');
      const buttons = await chatView.texts('.turn-assistant:last-child .turn-error button');
      assert.ok(buttons.includes(action), `buttons: ${buttons.join(', ')}`);
    });
  }

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
