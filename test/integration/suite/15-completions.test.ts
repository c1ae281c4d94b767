import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { TestProxy } from '../../emulator/proxy';
import { emulator, ensureKey, until, workbench } from '../drivers';
import { hasOuterRunner } from '../outer';

/** The folder this suite writes to (deleted at the end: semantic search counts the workspace's files). */
const FOLDER = 'completions';
const folderUri = () => vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, FOLDER);
const completionRequests = async () =>
  (await emulator.requests()).filter((request) => request.endpoint === 'chat' && /code completion engine/.test(request.chat?.messages[0]?.content ?? ''));

/** Opens `name` with `text`, the cursor at the end of line `line`. */
async function editAt(name: string, text: string, line: number, viewColumn = vscode.ViewColumn.One): Promise<vscode.TextEditor> {
  const uri = vscode.Uri.joinPath(folderUri(), name);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  const editor = await vscode.window.showTextDocument(uri, { preview: false, viewColumn });
  const end = editor.document.lineAt(line).range.end;
  editor.selection = new vscode.Selection(end, end);
  return editor;
}

/** Asks for a suggestion at the cursor (Alt+\) and accepts it (Tab) once it shows; resolves to the text then. */
async function acceptSuggestion(editor: vscode.TextEditor): Promise<string> {
  const before = editor.document.getText();
  await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
  await until(async () => {
    await vscode.commands.executeCommand('editor.action.inlineSuggest.commit');
    return editor.document.getText() !== before;
  }, 'a suggestion accepted');
  return editor.document.getText();
}

describe('suggestions as you type: GigaChat’s code in grey at the cursor', function () {
  this.timeout(60_000);

  before(async function () {
    if (!hasOuterRunner()) this.skip();
    await ensureKey();
    await vscode.workspace.fs.createDirectory(folderUri());
  });

  after(async function () {
    if (!hasOuterRunner()) return;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(folderUri(), { recursive: true });
  });

  it('in a function body, Tab inserts exactly the missing code, asked with the file around the cursor', async () => {
    await emulator.resetCounts();
    const editor = await editAt('area.ts', 'function area(r) {\n}\n', 0);
    const text = await acceptSuggestion(editor);
    // The body one level in, in the editor's unit (4 spaces here), though the model wrote 2.
    assert.equal(text, 'function area(r) {\n    const result = 42;\n    return result;\n}\n');
    const [request] = await completionRequests();
    assert.equal(request.chat?.model, 'GigaChat-2');
    assert.match(request.chat?.messages[1].content ?? '', /File: completions\/area\.ts \(typescript\)/);
    assert.ok(request.headers['x-session-id'], 'one session per file, for the prompt cache');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('a file that looks like a secret sends nothing, not even when asked, nor as context while open beside', async () => {
    await emulator.resetCounts();
    const secret = await editAt('.env', 'API_KEY=sk-not-to-be-sent\n', 0, vscode.ViewColumn.Two);
    await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
    // Then a file that may be sent, the secret still open beside it: its request is the only one, without the secret.
    const editor = await editAt('total.ts', 'const price = 3;\nconst total = \n', 1);
    assert.equal(await acceptSuggestion(editor), 'const price = 3;\nconst total = computeTotal();\n');
    const requests = await completionRequests();
    assert.equal(requests.length, 1);
    assert.ok(!requests[0].body.includes('API_KEY'));
    assert.equal(secret.document.getText(), 'API_KEY=sk-not-to-be-sent\n');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a request made stale by typing is cancelled, its connection closed, and the new text asked for', async () => {
    await emulator.resetCounts();
    await emulator.setOptions({ latencyMs: 1_500 });
    try {
      const editor = await editAt('stale.ts', 'const rate = 3;\nconst total = \n', 1);
      // Not awaited: the trigger command resolves only once the suggestion has come.
      const triggered = vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
      await until(async () => (await completionRequests()).length === 1, 'the first request sent');
      // Typed what the suggestion (computeTotal()) cannot begin with: the request is stale.
      await vscode.commands.executeCommand('type', { text: 'x' });
      await until(async () => (await completionRequests())[0]?.abandoned === true, 'the stale request given up (its connection closed)');
      await until(async () => (await completionRequests()).length === 2, 'the new text asked for');
      assert.match((await completionRequests())[1].chat?.messages[1].content ?? '', /const total = x\{\{FILL_HERE\}\}/);
      assert.equal(editor.document.getText(), 'const rate = 3;\nconst total = x\n', 'nothing of the stale suggestion was inserted');
      await triggered;
    } finally {
      await emulator.setOptions({ latencyMs: 0 });
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  it('a fill-in-the-middle server of the company’s own on this machine writes them instead, reached directly, not through the proxy; the service is not asked', async () => {
    const { baseUrl } = await emulator.info();
    const settings = vscode.workspace.getConfiguration('gigachat.completions');
    // The company's proxy is set for everything else: a server on this machine is not behind it.
    const proxy = await TestProxy.start();
    await vscode.workspace.getConfiguration('http').update('proxy', proxy.url, vscode.ConfigurationTarget.Global);
    await settings.update('provider', 'ollama', vscode.ConfigurationTarget.Global);
    // Named `localhost`, as such a server usually is: GigaChat's own requests go to 127.0.0.1, through the proxy.
    const server = `localhost:${new URL(baseUrl).port}`;
    await settings.update('serverUrl', `https://${server}`, vscode.ConfigurationTarget.Global);
    await settings.update('serverModel', 'qwen2.5-coder:1.5b', vscode.ConfigurationTarget.Global);
    try {
      await emulator.resetCounts();
      // The text the service was asked about in the first test: its suggestion is not served from the cache now.
      const editor = await editAt('server.ts', 'function area(r) {\n}\n', 0);
      assert.equal(await acceptSuggestion(editor), 'function area(r) {\n    const result = 42;\n    return result;\n}\n');
      const sent = (await emulator.requests()).filter((request) => request.endpoint === 'infill');
      assert.equal(sent.length, 1);
      assert.equal(sent[0].path, '/api/generate');
      assert.deepEqual(JSON.parse(sent[0].body).model, 'qwen2.5-coder:1.5b');
      assert.equal((await completionRequests()).length, 0, 'nothing went to GigaChat');
      assert.deepEqual(
        proxy.requests.filter((request) => request.target === server),
        [],
        'the server was reached directly',
      );
    } finally {
      for (const key of ['provider', 'serverUrl', 'serverModel']) await settings.update(key, undefined, vscode.ConfigurationTarget.Global);
      await vscode.workspace.getConfiguration('http').update('proxy', undefined, vscode.ConfigurationTarget.Global);
      await proxy.stop();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  it('the status bar turns suggestions off and on again', async () => {
    // The menu's command resolves once a choice is made: it is not awaited before choosing.
    const turnedOff = vscode.commands.executeCommand('gigachat.completionsMenu');
    await workbench.quickInput('Turn Off');
    await turnedOff;
    const status = async () => (await workbench.attributes('[id="gigachat-vscode.gigachat.gigachat.completions"] [aria-label]', 'aria-label')).join();
    await until(async () => (await status()).includes('suggestions as you type: off'), 'the status bar saying they are off');
    await emulator.resetCounts();
    const editor = await editAt('off.ts', 'const a = 1;\nconst total = \n', 1);
    await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
    const turnedOn = vscode.commands.executeCommand('gigachat.completionsMenu');
    await workbench.quickInput('Turn On');
    await turnedOn;
    assert.equal(await acceptSuggestion(editor), 'const a = 1;\nconst total = computeTotal();\n');
    assert.equal((await completionRequests()).length, 1, 'nothing was asked while they were off');
    await until(async () => (await status()).includes('suggestions as you type: on'), 'the status bar saying they are on');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
