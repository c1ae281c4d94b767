import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { answerIndexingQuestion, chatView, embeddedTexts, emulator, ensureKey, openChat, until } from '../drivers';
import { hasOuterRunner } from '../outer';

/** The folder this suite indexes (deleted at the end: the suites after it count the workspace's files). */
const FOLDER = 'one-stream';
const FILES = 40;
const folderUri = () => vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, FOLDER);
const LAST = '.turn-assistant:last-child';

/**
 * An individual's key gets one stream: the service refuses a second request at the same time with
 * 429 (the emulator does the same here). Indexing, a question in the panel and typing in a function
 * body all at once, as a user with such a key does: the question and the suggestion go first,
 * indexing yields and still finishes, and the service is hardly ever asked beyond the stream.
 */
describe('one stream for the account: indexing, a question and typing at once', function () {
  this.timeout(120_000);

  before(async function () {
    if (!hasOuterRunner()) this.skip();
    await ensureKey();
    for (let i = 0; i < FILES; i++)
      await vscode.workspace.fs.writeFile(
        vscode.Uri.joinPath(folderUri(), `tide${i}.md`),
        new TextEncoder().encode(`Tide table ${i}: high water at ${i % 12} o'clock, ${i * 3} cm above the mark.\n`),
      );
  });

  after(async function () {
    if (!hasOuterRunner()) return;
    await emulator.setOptions({ latencyMs: 0, streamsPerScope: {} });
    const settings = vscode.workspace.getConfiguration('gigachat');
    for (const key of ['search.batchSize', 'search.maxRequestsInFlight']) await settings.update(key, undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(folderUri(), { recursive: true });
  });

  it('the question is answered in full, a suggestion appears, indexing finishes, and the service refuses at most a handful', async () => {
    const settings = vscode.workspace.getConfiguration('gigachat');
    // Small batches, each answered after 300 ms: indexing is still sending while the user asks and types.
    await settings.update('search.batchSize', 2, vscode.ConfigurationTarget.Global);
    await settings.update('search.maxRequestsInFlight', 2, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('gigachat.clearSearchIndex');
    await emulator.setOptions({ latencyMs: 300, streamsPerScope: { GIGACHAT_API_PERS: 1 } });
    const refusedBefore = await emulator.refusedForStreams();
    await emulator.resetCounts();
    const { done: indexed } = await answerIndexingQuestion('Send and Index', 'gigachat.rebuildSearchIndex');
    await until(async () => (await embeddedTexts()).length >= 4, 'indexing under way', 30_000);

    await openChat();
    await chatView.newChat();
    await chatView.ask('When is high water?');
    await chatView.waitForText(`${LAST} .turn-body`, 'You asked: "When is high water?"');
    assert.equal(await chatView.count(`${LAST} .turn-error`), 0, 'no error under the answer');

    // A body no earlier suite asked about: the suggestion is asked for now, not served from the cache.
    const before = 'function tideHeight(hour) {\n}\n';
    const uri = vscode.Uri.joinPath(folderUri(), 'tide.ts');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(before));
    const editor = await vscode.window.showTextDocument(uri, { preview: false });
    editor.selection = new vscode.Selection(editor.document.lineAt(0).range.end, editor.document.lineAt(0).range.end);
    await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
    await until(
      async () => {
        await vscode.commands.executeCommand('editor.action.inlineSuggest.commit');
        return editor.document.getText() !== before;
      },
      'a suggestion accepted',
      30_000,
    );

    await indexed;
    const embedded = new Set(await embeddedTexts());
    for (let i = 0; i < FILES; i++)
      assert.ok(
        [...embedded].some((text) => text.includes(`Tide table ${i}:`)),
        `tide${i}.md was indexed`,
      );
    const refused = (await emulator.refusedForStreams()) - refusedBefore;
    // A handful: a stream just closed may still count at the service for a moment, and each window
    // learns the limit from a 429 once; never the dozens an unscheduled run is refused.
    assert.ok(refused <= 6, `the service refused ${refused} requests for the stream`);
  });
});
