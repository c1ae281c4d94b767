import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { until } from '../drivers';
import { callOuter, hasOuterRunner } from '../outer';

const EXTENSION_ID = 'gigachat-vscode.gigachat';

describe('smoke', () => {
  it('runs in a real VS Code', async () => {
    assert.match(vscode.version, /^1\.\d+\.\d+/);
    // A real workbench registers its built-in commands; a stub of the API would not.
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('workbench.action.files.newUntitledFile'), 'built-in commands are missing');
  });

  it('offers Explain as a lightbulb action from the start, before any GigaChat command or view is used', async () => {
    const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'smoke.ts');
    await vscode.workspace.fs.writeFile(uri, Buffer.from('const a = 1;\nconst b = a + 1;\n'));
    await vscode.window.showTextDocument(uri);
    // A request the workbench cancels (while the window is still settling) is asked again.
    const actions = () =>
      Promise.resolve(vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, new vscode.Range(0, 0, 1, 5))).catch(
        () => [],
      );
    try {
      // Activation comes once the window has started, perhaps just after this suite did.
      await until(
        async () => (await actions()).some((action) => action.command?.command === 'gigachat.explainSelection'),
        'the Explain action is offered',
        10_000,
      );
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      await vscode.workspace.fs.delete(uri);
    }
  });

  it('has the product extension installed, and it activates', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not installed`);
    assert.equal(extension.packageJSON.publisher, 'gigachat-vscode');
    await extension.activate();
    assert.equal(extension.isActive, true);
  });

  it('can reach the outer runner that drives the browser', async function () {
    if (!hasOuterRunner()) this.skip();
    const answer = await callOuter<{ pong: boolean; url: string }>('ping');
    assert.equal(answer.pong, true);
    assert.match(answer.url, /^http:\/\/127\.0\.0\.1:\d+\//);
  });
});
