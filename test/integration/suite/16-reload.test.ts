import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { answerIndexingQuestion, chatView, embeddedTexts, emulator, ensureKey, until } from '../drivers';
import { hasOuterRunner } from '../outer';

/** Files of one distinct line each, so that each is a chunk and the scan takes many batches. */
const RELOAD_FILES = 120;

/**
 * The last suite of the window: leaves indexing under way, code attached to the next message and a
 * question half typed, as a person might just before the window reloads. The outer runner then
 * reloads the window and checks that the conversation comes back and that indexing resumes without
 * paying again for what was embedded (test/harness/afterSuite.js).
 */
describe('before the window reloads', function () {
  before(async function () {
    if (!hasOuterRunner()) this.skip();
    await ensureKey();
  });

  it('indexing is under way, slowly, with batches already embedded', async () => {
    const folder = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'reload-fixture');
    fs.mkdirSync(folder, { recursive: true });
    for (let i = 0; i < RELOAD_FILES; i++)
      fs.writeFileSync(path.join(folder, `note${i}.md`), `Reload note ${i}: the lighthouse keeper counted ${i * 7} gulls.\n`);
    // Two texts per request, two requests at a time, each answered after 400 ms: the scan takes
    // longer than the rest of the suite, and at most four texts are in flight when the window reloads.
    const settings = vscode.workspace.getConfiguration('gigachat');
    await settings.update('search.batchSize', 2, vscode.ConfigurationTarget.Global);
    await settings.update('search.maxRequestsInFlight', 2, vscode.ConfigurationTarget.Global);
    // A fresh index: every chunk must be embedded, once (Clear also takes back the consent, asked again here).
    await vscode.commands.executeCommand('gigachat.clearSearchIndex');
    await emulator.setOptions({ latencyMs: 400 });
    await emulator.resetCounts();
    const { question } = await answerIndexingQuestion('Send and Index', 'gigachat.rebuildSearchIndex');
    assert.ok(Number(/\((\d+) chunks/.exec(question)?.[1]) > RELOAD_FILES, question);
    await until(async () => (await embeddedTexts()).length >= 8, 'a few batches embedded', 30_000);
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
