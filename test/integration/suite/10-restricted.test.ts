import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { emulator, until, workbench } from '../drivers';
import { hasOuterRunner } from '../outer';

// Runs in a second window whose folder is not trusted (test/harness/runIntegration.js, restricted
// phase); in the trusted main window it skips itself.
describe('restricted mode', function () {
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
});
