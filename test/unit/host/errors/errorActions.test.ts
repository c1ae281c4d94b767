import * as assert from 'node:assert/strict';
import { ServiceError } from '../../../../src/core';
import { SCOPE_MISMATCH } from '../../../../src/core/service/keyScopes';
import { actionLabel, showErrorNotification } from '../../../../src/host/errors/errorActions';
import { describeErrorsWith } from '../../../../src/host/errors/errorDescription';
import { GIGACHAT_API_PAGE } from '../../../../src/host/key/accountPage';
import { Log } from '../../../../src/host/log';
import { VsCodeSettings } from '../../../../src/host/settings/vscodeSettings';
import { standIn } from '../../support/vscodeStandIn';

/** A failure outside the chat view: a notification that says what happened, with the buttons that fix it, each doing what it says. */
describe('error notifications', () => {
  let settings: VsCodeSettings;
  let log: Log;
  beforeEach(() => {
    standIn.reset();
    settings = new VsCodeSettings();
    describeErrorsWith(settings);
    log = new Log();
  });
  afterEach(() => {
    log.dispose();
    settings.dispose();
  });

  const clicking = (label: string) => (standIn.messages.answer = (shown) => shown.items.find((item) => item === label));

  it('shows the failure as an error with its buttons in order, and Retry repeats the work', async () => {
    let retried = 0;
    clicking(actionLabel('retry'));
    await showErrorNotification(new ServiceError('server', 'HTTP 503', { status: 503 }), log, () => retried++);
    const [shown] = standIn.messages.shown;
    assert.equal(shown.kind, 'error');
    assert.match(shown.message, /problem on its side/);
    assert.deepEqual(shown.items, [actionLabel('retry'), actionLabel('openLogs')]);
    assert.equal(retried, 1);
  });

  it('offers no Retry where there is nothing to repeat', async () => {
    await showErrorNotification(new ServiceError('server', 'HTTP 503', { status: 503 }), log);
    assert.deepEqual(standIn.messages.shown[0].items, [actionLabel('openLogs')]);
  });

  it("opens the Settings editor on the scope setting alone, not on the extension's every setting", async () => {
    clicking(actionLabel('scopeSettings'));
    await showErrorNotification(new ServiceError('auth', 'scope refused', { code: SCOPE_MISMATCH }), log);
    assert.deepEqual(standIn.commands, [{ command: 'workbench.action.openSettings', args: ['@id:gigachat.scope'] }]);
  });

  it('opens the account page in the browser for an account out of tokens', async () => {
    clicking(actionLabel('openAccount'));
    await showErrorNotification(new ServiceError('payment', 'HTTP 402', { status: 402 }), log);
    assert.deepEqual(
      standIn.opened.map((uri) => uri.toString()),
      [GIGACHAT_API_PAGE],
    );
  });

  it('does nothing when the notification is closed', async () => {
    let retried = 0;
    await showErrorNotification(new ServiceError('timeout', 'no answer'), log, () => retried++);
    assert.equal(retried, 0);
    assert.deepEqual(standIn.commands, []);
  });

  it('shows nothing for a failure the user caused by stopping', async () => {
    await showErrorNotification(new ServiceError('cancelled', 'aborted'), log);
    assert.deepEqual(standIn.messages.shown, []);
  });
});
