import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { answerIndexingQuestion, emulator, embeddedTexts, setKeyThroughCommand, workbench } from '../drivers';
import { hasOuterRunner } from '../outer';

// Runs in a window on a .code-workspace file (test/harness/runIntegration.js, added-folder phase),
// where adding a folder does not restart the extension host; in the main window it skips itself.

/** Runs a search and answers its question about sending the files; resolves the question. */
async function searchAnswering(button: 'Send and Index' | 'Cancel'): Promise<string> {
  const { question, done } = await answerIndexingQuestion(button, 'gigachat.semanticSearch', 'animals that sleep holding hands');
  if (button === 'Send and Index') {
    await workbench.quickPickRows({ title: 'result' });
    await workbench.closeQuickInput();
  }
  await done;
  return question;
}

describe('a folder added to the workspace', function () {
  this.timeout(120_000);

  before(async function () {
    if (!hasOuterRunner() || !vscode.workspace.workspaceFile) this.skip();
    await setKeyThroughCommand((await emulator.info()).key); // this window has user data of its own
  });

  it('is asked about before any of its files is sent, though the workspace agreed before', async () => {
    await emulator.resetCounts();
    assert.match(await searchAnswering('Send and Index'), /sends 1 file\b/);
    assert.ok(
      (await embeddedTexts()).some((text) => text.includes('Otters hold hands')),
      'the first folder was indexed',
    );

    const [first] = vscode.workspace.workspaceFolders!;
    const second = vscode.Uri.file(path.join(path.dirname(first.uri.fsPath), 'second'));
    const added = new Promise((resolve) => vscode.workspace.onDidChangeWorkspaceFolders(resolve));
    assert.ok(vscode.workspace.updateWorkspaceFolders(1, 0, { uri: second }));
    await added;

    await emulator.resetCounts();
    assert.match(await searchAnswering('Cancel'), /Build a semantic search index of this workspace\?/, 'the new folder is asked about');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.ok(!(await embeddedTexts()).some((text) => text.includes('Badgers')), 'nothing of the new folder was sent');
  });
});
