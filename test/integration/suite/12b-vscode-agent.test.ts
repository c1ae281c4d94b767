import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { emulator, ensureKey, until, workbench } from '../drivers';
import { hasOuterRunner } from '../outer';
import { answerContaining, chatRequests, SESSION, type SentChat } from '../vscodeChat';

/** The folder this suite writes to (deleted at the end: semantic search counts the workspace's files). */
const FOLDER = 'vscode-agent';

const folderPath = () => path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, FOLDER);
const filePath = (name: string) => path.join(folderPath(), name);
/** The text as VS Code holds it: the agent's edits are in the editor's copy until they are kept. */
const readText = async (name: string) => (await vscode.workspace.openTextDocument(vscode.Uri.file(filePath(name)))).getText();

const chat = () => vscode.workspace.getConfiguration('chat');
const utilityModels = () => [chat().get<string>('utilitySmallModel'), chat().get<string>('utilityModel')];

/** A question to VS Code's own agent (Agent mode, no @), with a GigaChat model picked. */
async function askAgent(query: string): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
  await vscode.commands.executeCommand('workbench.action.chat.open', { query, mode: 'agent', modelSelector: { vendor: 'gigachat', id: 'GigaChat-2-Max' } });
}

/** A tool call as the emulated model makes it when the question carries this marker. */
const call = (tool: string, input: Record<string, unknown>) => `[call ${tool} ${JSON.stringify(input)}]`;

/** What the emulator was sent, written beside the run's results when a test fails. */
async function saveRequests(name: string): Promise<void> {
  const results = process.env.GIGACHAT_IT_RESULTS;
  await workbench.screenshot(name.replace('.json', ''));
  if (results) await fs.writeFile(path.join(path.dirname(results), name), JSON.stringify(await emulator.requests(), null, 1));
  console.log(`The Chat view shows: ${(await workbench.texts(SESSION)).join(' | ')}`);
}

/** The part of VS Code's git extension API these tests use. */
interface GitExtension {
  getAPI(version: 1): {
    getRepository(uri: vscode.Uri): { rootUri: vscode.Uri; inputBox: { value: string }; state: { indexChanges: unknown[] } } | null;
  };
}

const agentRequests = async (): Promise<SentChat[]> => (await chatRequests()).filter((request) => (request.functions?.length ?? 0) > 0);

describe("VS Code's own agent on GigaChat: utility models, and a task with VS Code's tools", function () {
  // A run takes some 10 s; the first command of a window also waits for its terminal to start.
  this.timeout(120_000);

  before(async function () {
    if (!hasOuterRunner()) this.skip();
    await ensureKey();
    await fs.mkdir(folderPath(), { recursive: true });
    await chat().update('disableAIFeatures', false, vscode.ConfigurationTarget.Global);
    await until(async () => (await vscode.lm.selectChatModels({ vendor: 'gigachat' })).length > 0, "GigaChat's models in VS Code", 30_000);
    // Where the tool list of this VS Code is written, to refresh test/unit/support/vscodeTools-*.json.
    const tools = vscode.lm.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
    const results = process.env.GIGACHAT_IT_RESULTS;
    if (results) await fs.writeFile(path.join(path.dirname(results), 'vscode-lm-tools.json'), JSON.stringify({ vscode: vscode.version, tools }, null, 1));
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  after(async function () {
    if (!hasOuterRunner()) return;
    await vscode.commands.executeCommand('workbench.action.chat.cancel').then(undefined, () => undefined);
    for (const key of ['utilitySmallModel', 'utilityModel']) await chat().update(key, undefined, vscode.ConfigurationTarget.Global);
    await chat().update('disableAIFeatures', true, vscode.ConfigurationTarget.Global);
    await fs.rm(folderPath(), { recursive: true, force: true });
  });

  it('offers once to use GigaChat for the utility models, sets them after a yes, and the commands undo and redo it', async () => {
    assert.deepEqual(utilityModels(), ['', '']);
    await emulator.resetCounts();
    await askAgent('Say hello');
    const offer = "VS Code's Chat answers with GigaChat";
    await until(async () => (await workbench.notifications()).some((text) => text.includes(offer)), 'the offer of utility models', 60_000);
    await workbench.notificationButton(offer, 'Use GigaChat');
    await until(() => !utilityModels().includes(''), 'the utility models set');
    assert.deepEqual(utilityModels(), ['gigachat/GigaChat-2', 'gigachat/GigaChat-2-Max'], "a small model for the small jobs, the chat's model for the rest");

    await vscode.commands.executeCommand('gigachat.stopUtilityModels');
    assert.deepEqual(utilityModels(), ['', '']);
    const asked = vscode.commands.executeCommand('gigachat.useForUtilityModels');
    assert.match(await workbench.dialogText(), /chat\.utilitySmallModel = gigachat\/GigaChat-2 and chat\.utilityModel = gigachat\/GigaChat-2-Pro/);
    await workbench.dialogButton('Use GigaChat');
    await asked;
    assert.deepEqual(utilityModels(), ['gigachat/GigaChat-2', 'gigachat/GigaChat-2-Pro']);

    // Titles now come from the small model.
    await emulator.resetCounts();
    await askAgent('Name this chat please');
    await until(
      async () => (await chatRequests()).some((request) => request.model === 'GigaChat-2' && /title/i.test(request.messages[0]?.content ?? '')),
      'a title asked of GigaChat-2',
      30_000,
    );
  });

  for (const run of [1, 2, 3]) {
    it(`completes a task with VS Code's tools: reads, edits two files, runs a command after confirmation; Undo restores the files (run ${run} of 3)`, async () => {
      // Plain text: after an edit to code VS Code's agent waits for the language's diagnostics of the file.
      const [a, b] = [`a${run}.txt`, `b${run}.txt`];
      await fs.writeFile(filePath(a), 'export const a = 1;\n');
      await fs.writeFile(filePath(b), 'export const b = 1;\n');
      await emulator.resetCounts();
      const task = [
        call('read_file', { filePath: filePath(a), startLine: 1, endLine: 1 }),
        call('replace_string_in_file', { filePath: filePath(a), oldString: 'export const a = 1;', newString: 'export const a = 2;' }),
        call('replace_string_in_file', { filePath: filePath(b), oldString: 'export const b = 1;', newString: 'export const b = 2;' }),
        call('run_in_terminal', {
          command: 'echo agent-run-$((6*7))',
          explanation: 'Prints a marker',
          goal: 'Check the terminal',
          mode: 'sync',
          isBackground: false,
        }),
      ].join(' ');
      try {
        await askAgent(`Bump both constants and check the terminal: ${task}`);
        await until(async () => (await readText(a)).includes('a = 2') && (await readText(b)).includes('b = 2'), 'both edits made', 60_000);

        // VS Code asks before it runs a command (Allow / Skip in the Chat view); the user allows it.
        await until(async () => /\bAllow\b/.test((await workbench.texts(SESSION)).join(' ')), "VS Code's confirmation of the command", 60_000);
        await workbench.screenshot(`vscode-agent-confirmation-${run}`);
        await vscode.commands.executeCommand('workbench.action.chat.acceptTool');
        // The first command of a window waits for its terminal to start. The Chat view shows the command's
        // output as it runs, before VS Code sends it back: the round that carries it is what ends the task.
        const withCommandOutput = async () =>
          (await agentRequests()).some((request) => request.messages.some((message) => message.role === 'function' && /agent-run-42/.test(message.content)));
        await until(withCommandOutput, "the command's output sent back to the model", 120_000);
        await answerContaining('agent-run-42', 30_000);
      } catch (error) {
        await saveRequests(`vscode-agent-requests-${run}.json`);
        throw error;
      }

      const requests = await agentRequests();
      const results = requests.at(-1)!.messages.filter((message) => message.role === 'function');
      assert.deepEqual(
        results.map((message) => message.name),
        ['read_file', 'replace_string_in_file', 'replace_string_in_file', 'run_in_terminal'],
      );
      assert.match(results[0].content, /export const a = 1;/, "the file's text went back to the model");
      assert.match(results[3].content, /agent-run-42/, "the command's output went back to the model");

      // The changed-files list shows both files; its Undo restores them.
      const session = (await workbench.texts(SESSION)).join(' ');
      assert.match(session, new RegExp(a.replace('.', '\\.')));
      assert.match(session, new RegExp(b.replace('.', '\\.')));
      await workbench.screenshot(`vscode-agent-task-${run}`);
      // VS Code asks first (a dialog: "This will undo changes made in 2 files…"): the user says yes.
      const undoing = vscode.commands.executeCommand('chatEditing.discardAllFiles');
      assert.match(await workbench.dialogText(), /undo changes made in 2 files/);
      await workbench.dialogButton('Yes');
      await undoing;
      await until(async () => (await readText(a)) === 'export const a = 1;\n' && (await readText(b)) === 'export const b = 1;\n', 'the files restored', 15_000);
    });
  }

  // What else of VS Code's AI runs on GigaChat once the utility models are set (the first test sets them).
  it("VS Code's own commit message (the sparkle in the message box) is written by GigaChat's small model", async () => {
    const repo = path.join(folderPath(), 'repo');
    await fs.mkdir(repo, { recursive: true });
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Tester', '-c', 'user.email=tester@example.com', ...args], { cwd: repo });
    git('init', '-q', '-b', 'main');
    await fs.writeFile(path.join(repo, 'limits.ts'), 'export const limit = 1;\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'Add the limit');
    await fs.writeFile(path.join(repo, 'limits.ts'), 'export const limit = 2;\n');
    git('add', '-A');
    const extension = vscode.extensions.getExtension<GitExtension>('vscode.git')!;
    const api = (extension.isActive ? extension.exports : await extension.activate()).getAPI(1);
    await vscode.commands.executeCommand('git.openRepository', repo);
    await until(() => (api.getRepository(vscode.Uri.file(repo))?.state.indexChanges.length ?? 0) === 1, 'the staged file seen by the git extension');
    const repository = api.getRepository(vscode.Uri.file(repo))!;
    try {
      await emulator.resetCounts();
      await vscode.commands.executeCommand('github.copilot.git.generateCommitMessage', repository.rootUri);
      await until(() => repository.inputBox.value.startsWith('**Emulated answer.**'), 'the message in the box', 30_000);
      const [asked] = await chatRequests();
      assert.equal(asked.model, 'GigaChat-2');
      assert.match(asked.messages.at(-1)?.content ?? '', /Repository name: repo/);
    } finally {
      await vscode.commands.executeCommand('git.close', repository.rootUri).then(undefined, () => undefined);
    }
  });

  it('inline chat (Ctrl+I) answers in the editor with GigaChat', async () => {
    const file = vscode.Uri.file(filePath('inline.ts'));
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode('export function add(a: number, b: number) {\n  return a + b;\n}\n'));
    const editor = await vscode.window.showTextDocument(file);
    editor.selection = new vscode.Selection(0, 0, 2, 1);
    await emulator.resetCounts();
    void vscode.commands.executeCommand('vscode.editorChat.start', { message: 'Add a comment above this function', autoSend: true });
    await until(
      async () => /You asked: "\s*Add a comment above this function/.test((await workbench.texts('.part.editor')).join(' ')),
      'the answer in the editor',
      45_000,
    );
    await workbench.screenshot('vscode-inline-chat');
    assert.ok(
      (await chatRequests()).some(
        (request) => (request.model ?? '').startsWith('GigaChat') && /Add a comment above this function/.test(request.messages.at(-1)?.content ?? ''),
      ),
    );
    await vscode.commands.executeCommand('inlineChat.close').then(undefined, () => undefined);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it("VS Code's rename suggestions are asked of GigaChat's small model", async () => {
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(filePath('inline.ts')));
    editor.selection = new vscode.Selection(0, 17, 0, 17);
    await emulator.resetCounts();
    void vscode.commands.executeCommand('editor.action.rename');
    await until(
      async () =>
        (await chatRequests()).some((request) => request.model === 'GigaChat-2' && /Relevant definition/.test(request.messages.at(-1)?.content ?? '')),
      'rename suggestions asked of GigaChat-2',
      30_000,
    );
    await workbench.press('Escape');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
