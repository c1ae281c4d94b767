import * as assert from 'node:assert/strict';
import { notify } from '../../../src/host/notify';
import { standIn } from '../support/vscodeStandIn';

/** Every notification and dialog goes through notify: its whole text shown inert, the button clicked handed back. */
describe('notify', () => {
  beforeEach(() => standIn.reset());

  it('shows a link a file name or the model forms as text, in the message and in the detail', async () => {
    await notify('warning', 'Could not read [notes](command:workbench.action.terminal.sendSequence?%7B%7D).', [], {
      modal: true,
      detail: 'The model said: [open] (https://example.com) and [run]\n(command:evil)',
    });
    const [shown] = standIn.messages.shown;
    assert.equal(shown.message, 'Could not read [notes] (command:workbench.action.terminal.sendSequence?%7B%7D).');
    assert.equal(shown.options.detail, 'The model said: [open] (https://example.com) and [run] (command:evil)');
    assert.doesNotMatch(`${shown.message}${shown.options.detail}`, /\]\(/);
  });

  it('shows each kind as its own kind of notification, in the corner unless asked for a dialog', async () => {
    await notify('info', 'Saved.');
    await notify('warning', 'Careful.');
    await notify('error', 'Failed.', [], { modal: true });
    assert.deepEqual(
      standIn.messages.shown.map(({ kind, message, options }) => [kind, message, options.modal]),
      [
        ['info', 'Saved.', false],
        ['warning', 'Careful.', false],
        ['error', 'Failed.', true],
      ],
    );
  });

  it('hands back the button clicked, with the buttons shown in their order', async () => {
    standIn.messages.answer = (shown) => shown.items[1];
    const chosen = await notify('info', 'Index the workspace?', ['Send and Index', 'Show Files']);
    assert.equal(chosen, 'Show Files');
    assert.deepEqual(standIn.messages.shown[0].items, ['Send and Index', 'Show Files']);
  });

  it('hands back nothing when the notification is closed', async () => {
    assert.equal(await notify('error', 'Failed.', ['Retry']), undefined);
  });

  it('hands back nothing for an answer that is not one of its buttons', async () => {
    standIn.messages.answer = () => 'Cancel';
    assert.equal(await notify('warning', 'Trust this certificate?', ['Trust'], { modal: true }), undefined);
  });
});
