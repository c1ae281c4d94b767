import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { chatView, openChat } from '../drivers';
import { hasOuterRunner } from '../outer';

/**
 * The last suite of the window: leaves code attached to the next message, as a person might just
 * before the window reloads. The outer runner then reloads the window and checks that it comes back
 * with the conversation (test/harness/afterSuite.js).
 */
describe('before the window reloads', function () {
  before(async function () {
    if (!hasOuterRunner()) this.skip();
    await openChat();
  });

  it('code attached to the next message shows in the chat', async () => {
    const readme = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'README.md');
    await vscode.commands.executeCommand('gigachat.addFileToChat', readme);
    await chatView.waitForText('.attachment-chip', 'README.md');
    assert.ok((await chatView.textContents('.attachment-chip')).includes('README.md'));
  });
});
