import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { emulator, ensureKey, until, workbench } from '../drivers';
import { hasOuterRunner } from '../outer';
import { answerChange, answerContaining, askAgain, askInChatView, changeQuestion, chatRequests, RESPONSES } from '../vscodeChat';

/** The folder this suite writes to (deleted at the end: semantic search counts the workspace's files). */
const FOLDER = 'agent-safety';
/** A secret the suite plants; it must never reach the service. */
const SECRET = 'sk-live-agent-safety-7f3a9c';

const folderPath = () => path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, FOLDER);
const filePath = (name: string) => path.join(folderPath(), ...name.split('/'));
const readText = (name: string) => fs.readFile(filePath(name), 'utf8');
async function writeText(name: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(filePath(name)), { recursive: true });
  await fs.writeFile(filePath(name), text);
}

/** Everything the service was sent since the counts were reset, as one text. */
const sentText = async () => (await emulator.requests()).map((request) => request.body).join('\n');

/** A tool call as the emulated model makes it when the question carries this marker. */
const call = (tool: string, input: Record<string, unknown>) => `[call ${tool} ${JSON.stringify(input)}]`;

describe("@gigachat in VS Code's Chat is safe with a hostile model: links, edits, tools it was not given, failures", function () {
  this.timeout(120_000);

  before(async function () {
    if (!hasOuterRunner()) this.skip();
    await ensureKey();
    await fs.mkdir(folderPath(), { recursive: true });
    await vscode.workspace.getConfiguration('chat').update('disableAIFeatures', false, vscode.ConfigurationTarget.Global);
    await until(async () => (await vscode.lm.selectChatModels({ vendor: 'gigachat' })).length > 0, "GigaChat's models in VS Code", 30_000);
  });

  afterEach(async () => {
    await emulator.clearFaults();
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  after(async function () {
    if (!hasOuterRunner()) return;
    await vscode.commands.executeCommand('workbench.action.chat.cancel').then(undefined, () => undefined);
    await vscode.workspace.getConfiguration('chat').update('disableAIFeatures', true, vscode.ConfigurationTarget.Global);
    await fs.rm(folderPath(), { recursive: true, force: true });
  });

  it('never reads a secret through a symbolic link inside the workspace', async () => {
    await writeText('.env', `API_TOKEN=${SECRET}\n`);
    await writeText('docs/readme.md', 'Docs.\n');
    await fs.symlink('../.env', filePath('docs/notes.md'));
    await emulator.resetCounts();
    await askInChatView(`@gigachat ${call('gigachat_readFile', { path: `${FOLDER}/docs/notes.md` })} what do the notes say?`);
    // The refusal ends the answer: waiting for it, not for the answer's first words, reads the whole of it.
    const answer = await answerContaining('symbolic link');
    assert.match(answer, /gigachat_readFile/);
    assert.ok(!(await sentText()).includes(SECRET), 'the secret never reached the service');
  });

  it('never changes .git/config through a symbolic link, and does not even ask', async () => {
    const config = '[core]\n\trepositoryformatversion = 0\n';
    await writeText('repo/.git/config', config);
    await fs.mkdir(filePath('repo/docs'), { recursive: true });
    await fs.symlink('../.git/config', filePath('repo/docs/gitcfg.txt'));
    await emulator.resetCounts();
    const edit = { path: `${FOLDER}/repo/docs/gitcfg.txt`, oldText: 'repositoryformatversion = 0', newText: 'fsmonitor = "touch pwned"' };
    await askInChatView(`@gigachat ${call('gigachat_editFile', edit)} set it up`);
    const answer = await answerContaining('symbolic link');
    assert.match(answer, /gigachat_editFile/);
    assert.equal(await readText('repo/.git/config'), config);
    assert.deepEqual(
      (await workbench.notifications()).filter((text) => text.includes('GigaChat wants to change')),
      [],
      'a refused change is not offered to the user',
    );
  });

  it('asks about every change with its diff, also after one was applied, and Discard leaves the file as it was', async () => {
    await writeText('colours.txt', 'colour = red\nsize = small\n');
    await askInChatView(`@gigachat ${call('gigachat_editFile', { path: `${FOLDER}/colours.txt`, oldText: 'red', newText: 'blue' })} make it blue`);
    const question = await changeQuestion(`${FOLDER}/colours.txt`);
    assert.match(question, /diff editor/);
    assert.match(question, /1 line removed, 1 line added/);
    const diff = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    assert.ok(diff instanceof vscode.TabInputTextDiff, 'the change is shown in the diff editor');
    assert.equal(diff.modified.scheme, 'gigachat-proposal');
    await workbench.screenshot('agent-change-diff');
    assert.equal(await readText('colours.txt'), 'colour = red\nsize = small\n', 'nothing changes before the user applies it');
    await answerChange(`${FOLDER}/colours.txt`, 'Apply Change');
    await until(async () => (await readText('colours.txt')) === 'colour = blue\nsize = small\n', 'the applied change');
    await answerContaining('Changed');

    // The same chat, the same session: the next change is asked about again.
    await askAgain(`@gigachat ${call('gigachat_editFile', { path: `${FOLDER}/colours.txt`, oldText: 'small', newText: 'large' })} make it large`);
    await changeQuestion(`${FOLDER}/colours.txt`);
    assert.equal(await readText('colours.txt'), 'colour = blue\nsize = small\n', 'a second change waits for its own answer');
    await answerChange(`${FOLDER}/colours.txt`, 'Discard');
    await answerContaining('discarded');
    assert.equal(await readText('colours.txt'), 'colour = blue\nsize = small\n', 'a discarded change never reaches the file');
    assert.ok(
      !vscode.window.tabGroups.all
        .flatMap((group) => group.tabs)
        .some((tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme === 'gigachat-proposal'),
      'the diff editor closes once the change is answered',
    );
  });

  it('marks a change to a file that can run code, and saves only the change', async () => {
    await writeText('.vscode/tasks.json', '{ "version": "2.0.0", "tasks": [] }\n');
    const edit = { path: `${FOLDER}/.vscode/tasks.json`, oldText: '"tasks": []', newText: '"tasks": [{ "label": "x", "command": "echo hi" }]' };
    await askInChatView(`@gigachat ${call('gigachat_editFile', edit)} add a task`);
    const question = await changeQuestion(`${FOLDER}/.vscode/tasks.json`);
    assert.match(question, /can run commands/);
    await answerChange(`${FOLDER}/.vscode/tasks.json`, 'Discard');
    await answerContaining('discarded');

    // The user types on while the change waits: the change is made in the editor, and nothing is saved for them.
    // Auto save off, as desktop VS Code starts (in a browser it saves after a second, before the answer on a slow machine).
    const files = vscode.workspace.getConfiguration('files');
    await files.update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    await writeText('notes.txt', 'first\nsecond\n');
    await askInChatView(`@gigachat ${call('gigachat_editFile', { path: `${FOLDER}/notes.txt`, oldText: 'second', newText: 'SECOND' })} shout`);
    await changeQuestion(`${FOLDER}/notes.txt`);
    // Typed into the file's document once its diff shows (an editor opened before it would be replaced by it, and its edit lost).
    await until(
      () => vscode.window.tabGroups.all.flatMap((group) => group.tabs).some((tab) => tab.input instanceof vscode.TabInputTextDiff),
      'the diff editor',
    );
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(filePath('notes.txt')));
    const typed = new vscode.WorkspaceEdit();
    typed.insert(document.uri, new vscode.Position(0, 0), 'mine\n');
    assert.ok(await vscode.workspace.applyEdit(typed), "the user's typing");
    assert.ok(document.isDirty, 'unsaved, as typed');
    await answerChange(`${FOLDER}/notes.txt`, 'Apply Change');
    await answerContaining('not saved');
    assert.equal(document.getText(), 'mine\nfirst\nSECOND\n', 'the change is in the editor, with what the user typed');
    assert.equal(await readText('notes.txt'), 'first\nsecond\n', "the user's unsaved changes were not saved for them");
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await files.update('autoSave', undefined, vscode.ConfigurationTarget.Global);
  });

  it('Undo This Turn gives a file its text back after its diff, and leaves one changed since', async () => {
    const told = async (pattern: RegExp) =>
      until(async () => (await workbench.notifications()).some((text) => pattern.test(text)), `a notification matching ${pattern}`);
    await writeText('undo.txt', 'mode = safe\n');
    await askInChatView(`@gigachat ${call('gigachat_editFile', { path: `${FOLDER}/undo.txt`, oldText: 'safe', newText: 'fast' })} go fast`);
    await answerChange(`${FOLDER}/undo.txt`, 'Apply Change');
    await answerContaining('Changed');
    await workbench.clickButton(RESPONSES, 'Undo This Turn');
    // Undoing is a change too: shown in its diff, applied only after the user's yes.
    await answerChange(`${FOLDER}/undo.txt`, 'Apply Change');
    await until(async () => (await readText('undo.txt')) === 'mode = safe\n', 'the file as it was before the turn');
    await told(/Undone: agent-safety\/undo\.txt\./);

    await askInChatView(`@gigachat ${call('gigachat_editFile', { path: `${FOLDER}/undo.txt`, oldText: 'safe', newText: 'turbo' })} go turbo`);
    await answerChange(`${FOLDER}/undo.txt`, 'Apply Change');
    await answerContaining('Changed');
    await writeText('undo.txt', 'mode = turbo\n# tuned by hand\n');
    await workbench.clickButton(RESPONSES, 'Undo This Turn');
    await told(/Changed since the turn, so left as they are: agent-safety\/undo\.txt\./);
    assert.equal(await readText('undo.txt'), 'mode = turbo\n# tuned by hand\n', "the user's later work is kept");
  });

  it('Stop while a change waits for its answer: the change is dropped and nothing more is asked', async () => {
    await writeText('stopped.txt', 'state = waiting\n');
    await emulator.resetCounts();
    await askInChatView(`@gigachat ${call('gigachat_editFile', { path: `${FOLDER}/stopped.txt`, oldText: 'waiting', newText: 'changed' })} change it`);
    await changeQuestion(`${FOLDER}/stopped.txt`);
    await vscode.commands.executeCommand('workbench.action.chat.cancel');
    await until(
      () => !vscode.window.tabGroups.all.flatMap((group) => group.tabs).some((tab) => tab.input instanceof vscode.TabInputTextDiff),
      'the diff editor closed',
    );
    await vscode.commands.executeCommand('gigachat.applyChange');
    assert.equal(await readText('stopped.txt'), 'state = waiting\n');
    assert.equal((await chatRequests()).length, 1, 'no request after Stop');
  });

  it('never runs a tool the model was not offered: the model is told, and the answer says so', async () => {
    await emulator.resetCounts();
    await emulator.inject({ kind: 'functionCall', name: 'copilot_readFile', arguments: { filePath: `${FOLDER}/.env` } }, { endpoint: 'chat', times: 3 });
    await askInChatView('@gigachat what is in the environment file?');
    const answer = await answerContaining('not offered');
    assert.ok(!answer.includes(SECRET));
    const requests = await chatRequests();
    assert.equal(requests.length, 3, 'asked again twice, telling the model, then the call was dropped');
    assert.match(requests[1].messages.at(-1)!.content, /"copilot_readFile", which is not offered here/);
    assert.ok(!requests.some((request) => request.messages.some((message) => message.role === 'function')), 'nothing was run');

    // The same through vscode.lm, for any extension: a call of a tool not in the request never comes back as a tool call.
    await emulator.inject({ kind: 'functionCall', name: 'gigachat_editFile', arguments: { path: 'x', newText: 'y' } }, { endpoint: 'chat', times: 3 });
    const [model] = await vscode.lm.selectChatModels({ vendor: 'gigachat', id: 'GigaChat-2' });
    const tool = { name: 'lookup-weather', description: 'The weather in a city', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } };
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('weather?')], { tools: [tool] }, new vscode.CancellationTokenSource().token);
    const parts: unknown[] = [];
    for await (const part of response.stream) parts.push(part);
    assert.deepEqual(
      parts.filter((part) => part instanceof vscode.LanguageModelToolCallPart),
      [],
    );
  });

  it('a request failing after an applied change keeps what was done: asked again, the change is not made twice', async () => {
    await writeText('twice.txt', 'alpha\nbeta\n');
    const edit = { path: `${FOLDER}/twice.txt`, oldText: 'alpha\nbeta', newText: 'alpha\nbeta\nbeta' };
    const question = `@gigachat ${call('gigachat_editFile', edit)} add another beta`;
    await emulator.resetCounts();
    await askInChatView(question);
    await changeQuestion(`${FOLDER}/twice.txt`);
    // The request after the change fails, retries and all.
    await emulator.inject({ kind: 'status', status: 500 }, { endpoint: 'chat', times: 10 });
    await answerChange(`${FOLDER}/twice.txt`, 'Apply Change');
    // VS Code shows the error under the answer once the request has ended.
    const failed = await answerContaining('GigaChat had a problem on its side');
    assert.match(failed, /Changed agent-safety\/twice\.txt; then the request failed/);
    assert.equal(await readText('twice.txt'), 'alpha\nbeta\nbeta\n');
    await emulator.clearFaults();

    await emulator.resetCounts();
    await askAgain(question);
    await until(async () => (await workbench.texts(RESPONSES)).length >= 2 && (await chatRequests()).length >= 1, 'the second answer');
    await answerContaining('Emulated answer');
    const [asked] = await chatRequests();
    const earlier = asked.messages.find((message) => message.role === 'function');
    assert.match(earlier?.content ?? '', /Changed/, 'the change made before the failure went with the next question');
    assert.equal(await readText('twice.txt'), 'alpha\nbeta\nbeta\n', 'the file changed once');
    assert.deepEqual(
      (await workbench.notifications()).filter((text) => text.includes(`GigaChat wants to change ${FOLDER}/twice.txt`)),
      [],
    );
  });

  it("leaves only web and workspace links in @gigachat's answers clickable", async () => {
    await askInChatView('@gigachat see [the passwords](file:///etc/passwd) and [the docs](https://example.com/docs)');
    await answerContaining('the docs');
    // VS Code's renderer keeps a link's target in href or data-href, depending on the link.
    const links = [...(await workbench.attributes(`${RESPONSES} a`, 'href')), ...(await workbench.attributes(`${RESPONSES} a`, 'data-href'))].filter(
      (href): href is string => href !== null,
    );
    assert.ok(
      links.some((href) => href.startsWith('https://example.com/docs')),
      `the web link stays a link (links: ${links.join(', ')})`,
    );
    assert.deepEqual(
      links.filter((href) => href.includes('/etc/passwd')),
      [],
    );
  });
});
