import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { callOuter, hasOuterRunner } from '../outer';

const EXTENSION_ID = 'gigachat-vscode.gigachat';

describe('smoke', () => {
  it('runs in a real VS Code', async () => {
    assert.match(vscode.version, /^1\.\d+\.\d+/);
    // A real workbench registers its built-in commands; a stub of the API would not.
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('workbench.action.files.newUntitledFile'), 'built-in commands are missing');
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
