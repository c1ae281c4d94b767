import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { chatView, ensureKey } from '../drivers';
import { hasOuterRunner } from '../outer';

/**
 * The last suite of the window: leaves code attached to the next message and a question half typed,
 * as a person might just before the window reloads. The outer runner then reloads the window and
 * checks that they come back with the conversation (test/harness/afterSuite.js).
 */
describe('before the window reloads', function () {
  before(async function () {
    if (!hasOuterRunner()) this.skip();
    await ensureKey();
  });

  it('code attached to the next message and a half-typed question show in the chat', async () => {
    const readme = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'README.md');
    await vscode.commands.executeCommand('gigachat.addFileToChat', readme);
    await chatView.waitForText('.attachment-chip', 'README.md');
    await chatView.press('Control+A');
    await chatView.press('Backspace');
    await chatView.type('A question half typed before the reload');
    assert.equal(await chatView.inputValue(), 'A question half typed before the reload');
    // The view reports its draft to the host debounced: the reload must not come before it.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  });
});
