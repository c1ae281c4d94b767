import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, chatView, emulator, openChat, productLog, setKeyThroughCommand, until, workbench } from '../drivers';
import { hasOuterRunner } from '../outer';
import { answerContaining, askInChatView } from '../vscodeChat';

describe('authorization key', function () {
  before(function () {
    if (!hasOuterRunner()) this.skip();
  });

  /** Waits for a notification matching `message`, then clears them all; returns its text. */
  async function told(message: RegExp, what: string): Promise<string> {
    // Read from the notification list: VS Code does not always pop a toast up right after the ones cleared before.
    await vscode.commands.executeCommand('notifications.showList');
    let text = '';
    await until(async () => Boolean((text = (await workbench.notifications()).find((shown) => message.test(shown)) ?? '')), what);
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('notifications.hideList');
    return text;
  }

  it('contributes every command, in the GigaChat category', async () => {
    const commands = await vscode.commands.getCommands(true);
    for (const id of ['gigachat.openChat', 'gigachat.newChat', 'gigachat.explainSelection', 'gigachat.setAuthorizationKey', 'gigachat.clearAuthorizationKey']) {
      assert.ok(commands.includes(id), `${id} is not registered`);
    }
    const contributed = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes.commands as { category: string }[];
    assert.ok(contributed.every((c) => c.category === 'GigaChat'));
  });

  it('without a key, the chat view welcomes the user with a button that sets one', async () => {
    await openChat();
    await chatView.waitFor('.welcome');
    const buttons = await chatView.texts('.welcome button');
    assert.ok(
      buttons.some((b) => /authorization key/i.test(b)),
      `buttons: ${buttons.join(', ')}`,
    );
    await workbench.screenshot('chat-welcome');
  });

  it("@gigachat without a key says GigaChat needs one, with the buttons that set it and get one, not VS Code's bare error", async function () {
    this.timeout(90_000);
    // The test profile hides VS Code's Chat, as a user who turned AI features off would: on for this test.
    await vscode.workspace.getConfiguration('chat').update('disableAIFeatures', false, vscode.ConfigurationTarget.Global);
    try {
      await until(async () => (await vscode.lm.selectChatModels({ vendor: 'gigachat' })).length > 0, "GigaChat's model listed, though no key is set", 30_000);
      await emulator.resetCounts();
      await askInChatView('@gigachat hello');
      const answer = await answerContaining('Get a Key');
      assert.match(answer, /GigaChat needs your authorization key to answer/);
      assert.match(answer, /Set authorization key/i);
      assert.doesNotMatch(answer, /Language model unavailable/);
      assert.equal(await emulator.count('chat'), 0, 'nothing was asked of the service');
    } finally {
      await vscode.commands.executeCommand('workbench.action.chat.cancel').then(undefined, () => undefined);
      await vscode.workspace.getConfiguration('chat').update('disableAIFeatures', true, vscode.ConfigurationTarget.Global);
    }
  });

  it('a rejected key keeps the input open with the reason, and is not stored', async () => {
    const done = vscode.commands.executeCommand('gigachat.setAuthorizationKey');
    await workbench.quickInput('d3Jvbmc6a2V5');
    await until(async () => /rejected/i.test(await workbench.quickInputMessage()), 'the rejection message');
    await workbench.press('Escape');
    assert.equal(await done, false);
    await chatView.waitFor('.welcome');
  });

  it('Escape while the key is being checked stores nothing, even though the service accepts the key', async () => {
    const { key } = await emulator.info();
    const latencyMs = 2_000;
    await emulator.resetCounts();
    await emulator.setOptions({ latencyMs });
    try {
      const done = vscode.commands.executeCommand('gigachat.setAuthorizationKey');
      await workbench.quickInput(key);
      await until(async () => (await emulator.count('oauth')) >= 1, 'the key check under way');
      await workbench.press('Escape');
      assert.equal(await done, false);
      await until(async () => (await productLog()).includes('cancelled while the key was checked'), 'the cancel in the log');
      // Past the moment the service accepts the key: it must not be stored then either.
      await new Promise((resolve) => setTimeout(resolve, latencyMs + 1_000));
      await chatView.waitFor('.welcome');
    } finally {
      await emulator.setOptions({ latencyMs: 0 });
    }
  });

  it('a key the service accepts is stored, and the welcome gives way to the chat', async () => {
    const { key } = await emulator.info();
    await emulator.resetCounts();
    await setKeyThroughCommand(key);
    await chatView.waitFor('.welcome', 'hidden');
    assert.ok((await emulator.count('oauth')) >= 1, 'the key was checked by a token exchange');
    const stored = vscode.workspace.getConfiguration('gigachat');
    assert.ok(!JSON.stringify(stored).includes(key), 'the key is not in the settings');
  });

  it('a business key set while the settings say personal is stored, and the scope setting switched to its own, saying so', async () => {
    const { key } = await emulator.info();
    const gigachat = () => vscode.workspace.getConfiguration('gigachat');
    await emulator.setOptions({ scopes: ['GIGACHAT_API_B2B'] });
    await emulator.resetCounts();
    try {
      await setKeyThroughCommand(key);
      await told(
        /It is a key for the business, prepaid \(GIGACHAT_API_B2B\) scope, so GigaChat now uses that scope instead of personal \(GIGACHAT_API_PERS\)/,
        'the message that the scope was switched',
      );
      assert.equal(gigachat().get('scope'), 'GIGACHAT_API_B2B');
      const scopesAsked = (await emulator.requests()).filter((r) => r.endpoint === 'oauth').map((r) => new URLSearchParams(r.body).get('scope'));
      // Distinct, in order: the new key also makes the model list ask for a token with the scope in the settings, at the same moment.
      assert.deepEqual(
        [...new Set(scopesAsked)].slice(0, 2),
        ['GIGACHAT_API_PERS', 'GIGACHAT_API_B2B'],
        'the scope in the settings first, then the business ones in turn',
      );
    } finally {
      await emulator.setOptions({ scopes: ['GIGACHAT_API_PERS', 'GIGACHAT_API_B2B', 'GIGACHAT_API_CORP'] });
      await gigachat().update('scope', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('the API other extensions get makes requests but holds neither the key nor the client', async () => {
    const { key } = await emulator.info();
    const api = vscode.extensions.getExtension<{ getClient(): Promise<Record<string, unknown>> }>('gigachat-vscode.gigachat')!.exports;
    const client = await api.getClient();
    const models = await (client.models as () => Promise<unknown[]>)();
    assert.ok(models.length > 0, 'requests work');
    // Everything reachable from the object through its properties: no key, no token, no dispose().
    const seen = new Set<unknown>();
    const reachable: unknown[] = [];
    const walk = (value: unknown) => {
      if (value === null || (typeof value !== 'object' && typeof value !== 'function') || seen.has(value)) return void reachable.push(value);
      seen.add(value);
      for (const name of Reflect.ownKeys(value)) {
        const descriptor = Object.getOwnPropertyDescriptor(value, name);
        if (descriptor && 'value' in descriptor) walk(descriptor.value);
      }
    };
    walk(client);
    assert.ok(!reachable.some((value) => typeof value === 'string' && value.includes(key)), 'the key is not reachable');
    assert.equal(client.dispose, undefined, 'nothing can close the window’s connections');
    assert.equal(client.options, undefined);
  });

  it('Clear Authorization Key removes it, and Set brings it back', async () => {
    await vscode.commands.executeCommand('gigachat.clearAuthorizationKey');
    await chatView.waitFor('.welcome');
    await setKeyThroughCommand((await emulator.info()).key);
    await chatView.waitFor('.welcome', 'hidden');
  });

  it("GigaChat's settings are in four groups, connection first, and the scope's link sets the key", async () => {
    const workbenchSettings = vscode.workspace.getConfiguration('workbench');
    await workbenchSettings.update('colorTheme', 'Default Dark Modern', vscode.ConfigurationTarget.Global);
    try {
      await vscode.commands.executeCommand('workbench.action.openSettings', '@ext:gigachat-vscode.gigachat');
      let groups = '';
      await until(async () => /Semantic Search/.test((groups = (await workbench.texts('.settings-toc-container .monaco-list-row')).join(' | '))), 'the groups');
      for (const group of ['Connection', 'Chat', 'Completions', 'Source Control', 'Semantic Search'])
        assert.ok(groups.includes(group), `${group} in: ${groups}`);
      // Connection first, and in it the scope, whose description leads to the key.
      const labels = await workbench.texts('.settings-editor .setting-item-label');
      assert.equal(labels[0], 'Scope', `settings shown: ${labels.join(', ')}`);
      await workbench.screenshot('settings-en-dark');
      await workbench.click('.settings-editor a:has-text("Set Authorization Key")');
      await workbench.quickInput((await emulator.info()).key);
      await told(/authorization key saved/, 'the key set from the link in the settings');
    } finally {
      await workbenchSettings.update('colorTheme', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    }
  });

  it('Clear says the key in GIGACHAT_CREDENTIALS is still used, rather than that no key is left', async () => {
    const { key } = await emulator.info();
    process.env.GIGACHAT_CREDENTIALS = key; // this extension host is the product's too
    try {
      await vscode.commands.executeCommand('gigachat.clearAuthorizationKey');
      await told(/removed\. GigaChat still uses the key in the GIGACHAT_CREDENTIALS environment variable: unset it/, 'the message for a key removed');
      await vscode.commands.executeCommand('gigachat.clearAuthorizationKey');
      await told(/No authorization key is stored: GigaChat uses the key in the GIGACHAT_CREDENTIALS environment variable/, 'the message for no key stored');
      await chatView.waitFor('.welcome', 'hidden');
    } finally {
      delete process.env.GIGACHAT_CREDENTIALS;
      await setKeyThroughCommand(key);
    }
  });

  it('Show Token Balance tells what is left of each package; a postpaid account is told why it has none', async () => {
    void vscode.commands.executeCommand('gigachat.showTokenBalance');
    const balance = await told(/Tokens left —/, 'the balance');
    // Grouped as the display language writes numbers (991,490 in English).
    assert.match(balance, /GigaChat: 991\D?490 · GigaChat-Pro: 498\D?800 · GigaChat-Max: 250\D?000 · embeddings: 4\D?995\D?000/);
    const gigachat = vscode.workspace.getConfiguration('gigachat');
    await gigachat.update('scope', 'GIGACHAT_API_CORP', vscode.ConfigurationTarget.Global);
    try {
      void vscode.commands.executeCommand('gigachat.showTokenBalance');
      await told(/A postpaid account \(GIGACHAT_API_CORP\) has no token balance: its tokens are billed after use/, 'why a postpaid account has no balance');
    } finally {
      await gigachat.update('scope', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
