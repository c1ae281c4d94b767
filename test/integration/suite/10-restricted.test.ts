import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { emulator, ensureKey, until, workbench } from '../drivers';
import { hasOuterRunner } from '../outer';
import { answerContaining, askInChatView, chatRequests, RESPONSES } from '../vscodeChat';

// Runs in a second window whose folder is not trusted (test/harness/runIntegration.js, restricted
// phase); in the trusted main window it skips itself.
describe('restricted mode', function () {
  this.timeout(90_000);

  before(function () {
    if (!hasOuterRunner() || vscode.workspace.isTrusted) this.skip();
  });

  it('the extension runs in an untrusted folder: chat and key commands are there', async () => {
    const extension = vscode.extensions.getExtension('gigachat-vscode.gigachat')!;
    await extension.activate();
    assert.ok(extension.isActive);
    const commands = await vscode.commands.getCommands(true);
    for (const command of ['gigachat.openChat', 'gigachat.setAuthorizationKey', 'gigachat.semanticSearch']) assert.ok(commands.includes(command), command);
  });

  it('a system prompt set by the untrusted folder is ignored', async () => {
    const systemPrompt = vscode.workspace.getConfiguration('gigachat').inspect<string>('systemPrompt');
    const shipped = fs.readFileSync(path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, '.vscode', 'settings.json'), 'utf8');
    assert.match(shipped, /gigachat\.systemPrompt/, 'the folder does set one');
    assert.equal(vscode.workspace.getConfiguration('gigachat').get('systemPrompt'), '', `in effect: ${JSON.stringify(systemPrompt)}`);
  });

  it('commit instructions and a model set by the untrusted folder are ignored', () => {
    const gigachat = vscode.workspace.getConfiguration('gigachat');
    const shipped = fs.readFileSync(path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, '.vscode', 'settings.json'), 'utf8');
    assert.match(shipped, /gigachat\.commitMessageInstructions[\s\S]*gigachat\.model/, 'the folder does set them');
    assert.equal(gigachat.get('commitMessageInstructions'), '', `in effect: ${JSON.stringify(gigachat.inspect('commitMessageInstructions'))}`);
    const model = gigachat.inspect<string>('model');
    assert.equal(gigachat.get('model'), model?.globalValue ?? model?.defaultValue, `in effect: ${JSON.stringify(model)}`);
    assert.notEqual(gigachat.get('model'), 'GigaChat-2-Max');
  });

  it('semantic search is off: it says why, offers to manage trust, and sends nothing', async () => {
    await emulator.resetCounts();
    void vscode.commands.executeCommand('gigachat.semanticSearch', 'where is the configuration read');
    let shown: string[] = [];
    await until(async () => (shown = await workbench.notifications()).some((text) => text.includes('Restricted Mode')), 'the Restricted Mode message');
    assert.ok(
      shown.some((text) => /would send this workspace's files/.test(text)),
      shown.join('\n'),
    );
    assert.ok((await workbench.notificationButtons()).includes('Manage workspace trust'));
    assert.equal(await emulator.count('embeddings'), 0);
    await workbench.screenshot('search-restricted-mode');
  });

  it('Write Commit Message and Review Changes refuse: they say why, offer to manage trust, and send nothing', async () => {
    await emulator.resetCounts();
    for (const [command, why] of [
      ['gigachat.writeCommitMessage', 'Writing the commit message is off in Restricted Mode'],
      ['gigachat.reviewChanges', 'Reviewing changes is off in Restricted Mode'],
    ]) {
      await vscode.commands.executeCommand('notifications.clearAll');
      void vscode.commands.executeCommand(command);
      let shown: string[] = [];
      await until(async () => (shown = await workbench.notifications()).some((text) => text.includes(why)), `the refusal of ${command}`);
      assert.ok(
        shown.some((text) => text.includes(why) && /would send this workspace's changes/.test(text)),
        shown.join('\n'),
      );
      assert.ok((await workbench.notificationButtons()).includes('Manage workspace trust'));
    }
    assert.deepEqual(await chatRequests(), []);
    await workbench.screenshot('scm-restricted-mode');
  });

  it("GigaChat's tools read nothing in Restricted Mode, whoever calls them", async () => {
    const result = await vscode.lm.invokeTool('gigachat_readFile', { input: { path: 'notes.md' }, toolInvocationToken: undefined });
    const text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
    assert.match(text, /tools are off in Restricted Mode/);
    assert.doesNotMatch(text, /nobody has trusted/);
  });

  describe("@gigachat in VS Code's Chat", function () {
    before(async function () {
      await ensureKey();
      // The test profile hides VS Code's Chat, as a user who turned AI features off would; these tests turn it on.
      await vscode.workspace.getConfiguration('chat').update('disableAIFeatures', false, vscode.ConfigurationTarget.Global);
      await until(async () => (await vscode.lm.selectChatModels({ vendor: 'gigachat' })).length > 0, "GigaChat's models in VS Code", 30_000);
    });

    after(async function () {
      await vscode.commands.executeCommand('workbench.action.chat.cancel').then(undefined, () => undefined);
      await vscode.workspace.getConfiguration('chat').update('disableAIFeatures', true, vscode.ConfigurationTarget.Global);
    });

    it("answers without tools or the folder's files, says once that the folder is not trusted, with the button to trust it", async () => {
      await emulator.resetCounts();
      await askInChatView('@gigachat [call gigachat_readFile {"path":"notes.md"}] what is in notes.md?');
      // The notice ends the answer: waiting for it, not for the answer's first words, reads the whole of it.
      const answer = await answerContaining('is not trusted (Restricted Mode)');
      assert.equal(answer.split('is not trusted (Restricted Mode)').length - 1, 1, JSON.stringify(answer));
      // After the answer, where it shows: VS Code folds what comes before the answer into its steps.
      assert.ok(answer.indexOf('You asked') < answer.indexOf('is not trusted'), JSON.stringify(answer));
      const buttons = await workbench.texts(`${RESPONSES} .monaco-button`);
      assert.ok(buttons.includes('Manage workspace trust'), buttons.join(' | '));
      const requests = await chatRequests();
      assert.equal(requests.length, 1, 'one request, no tool loop');
      assert.equal(requests[0].functions?.length ?? 0, 0, 'no tools offered');
      assert.ok(!JSON.stringify(requests[0].messages).includes('nobody has trusted'), "the folder's file was not sent");
      await workbench.screenshot('vscode-chat-restricted-mode');
    });
  });
});
