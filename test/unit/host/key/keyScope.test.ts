import * as assert from 'node:assert/strict';
import { scopeLabel, useScope } from '../../../../src/host/key/keyScope';
import { VsCodeSettings } from '../../../../src/host/settings/vscodeSettings';
import { ConfigurationTarget, standIn } from '../../support/vscodeStandIn';

/** A key that works with another scope than the settings': the scope is switched where it takes effect, and said. */
describe('key scope', () => {
  let settings: VsCodeSettings;
  beforeEach(() => {
    standIn.reset();
    settings = new VsCodeSettings();
  });
  afterEach(() => settings.dispose());

  it("puts a business key's scope in the user's settings, and hands back the one it replaced", async () => {
    assert.equal(await useScope('GIGACHAT_API_B2B', settings), 'GIGACHAT_API_PERS');
    assert.equal(standIn.settings.inspect('gigachat.scope').globalValue, 'GIGACHAT_API_B2B');
    assert.equal(settings.get('scope'), 'GIGACHAT_API_B2B');
  });

  it("puts it in the workspace's settings when they set the scope, so it is not hidden under them", async () => {
    standIn.settings.set('gigachat.scope', 'GIGACHAT_API_PERS', ConfigurationTarget.Workspace);
    assert.equal(await useScope('GIGACHAT_API_CORP', settings), 'GIGACHAT_API_PERS');
    assert.equal(standIn.settings.inspect('gigachat.scope').workspaceValue, 'GIGACHAT_API_CORP');
    assert.equal(standIn.settings.inspect('gigachat.scope').globalValue, undefined);
  });

  it('writes nothing when the key is for the scope in use, so the window does not reconnect', async () => {
    let changes = 0;
    settings.onDidChange(() => changes++);
    assert.equal(await useScope('GIGACHAT_API_PERS', settings), undefined);
    assert.equal(changes, 0);
    assert.equal(standIn.settings.inspect('gigachat.scope').globalValue, undefined);
  });

  it('names each scope with what it is for, and shows an unknown one as inert text', () => {
    assert.equal(scopeLabel('GIGACHAT_API_PERS'), 'personal (GIGACHAT_API_PERS)');
    assert.equal(scopeLabel('GIGACHAT_API_B2B'), 'business, prepaid (GIGACHAT_API_B2B)');
    assert.equal(scopeLabel('GIGACHAT_API_CORP'), 'business, postpaid (GIGACHAT_API_CORP)');
    assert.equal(scopeLabel('[x](command:evil)'), '[x] (command:evil)');
  });
});
