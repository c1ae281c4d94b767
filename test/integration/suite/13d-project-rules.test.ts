import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { chatView, emulator, ensureKey, until, workbench } from '../drivers';
import { hasOuterRunner } from '../outer';
import { askInChatView, answerContaining, chatRequests } from '../vscodeChat';

/** The rules this suite writes (deleted at the end: semantic search counts the workspace's files). */
const ROOT_RULE = 'Rule of the root AGENTS.md: call the user Captain.';
const REPO = 'rules-repo';
const REPO_RULE = 'Rule of the nearest AGENTS.md: commit subjects start with RULE-7.';

interface InputBoxRepository {
  rootUri: vscode.Uri;
  inputBox: { value: string };
  state: { indexChanges: unknown[] };
}

const workspacePath = (...parts: string[]) => path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, ...parts);

/** Every message's text of the emulator's chat requests since its counts were reset, the one that has `marker`. */
async function sentWith(marker: string): Promise<string> {
  const chat = (await emulator.requests()).filter((request) => request.endpoint === 'chat');
  const texts = chat.map((request) => request.chat!.messages.map((message) => `${message.role}: ${message.content}`).join('\n'));
  const found = texts.find((text) => text.includes(marker));
  assert.ok(found, `a request with "${marker}" among ${texts.length}`);
  return found;
}

describe("the project's rules (AGENTS.md) in the panel, @gigachat and the commit message", function () {
  this.timeout(90_000);

  before(async function () {
    if (!hasOuterRunner()) this.skip();
    await ensureKey();
    fs.writeFileSync(workspacePath('AGENTS.md'), `# Rules\n\n${ROOT_RULE}\n`);
  });

  after(async function () {
    if (!hasOuterRunner()) return;
    fs.rmSync(workspacePath('AGENTS.md'), { force: true });
    fs.rmSync(workspacePath(REPO), { recursive: true, force: true });
  });

  it('a panel answer is asked with the rule, and its chip opens AGENTS.md', async () => {
    await chatView.newChat();
    await emulator.resetCounts();
    await chatView.ask('Who am I?');
    const sent = await sentWith('Who am I?');
    assert.match(sent, /^system: The project's rules[\s\S]*## AGENTS\.md[\s\S]*call the user Captain/m, 'the rule in the system message');
    await chatView.waitForText('.turn-assistant .reply-rules', 'AGENTS.md');
    await chatView.click('.turn-assistant .rule-chip');
    await until(() => vscode.window.activeTextEditor?.document.uri.fsPath === workspacePath('AGENTS.md'), 'AGENTS.md opened by its chip');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('@gigachat is asked with the rule', async () => {
    await vscode.workspace.getConfiguration('chat').update('disableAIFeatures', false, vscode.ConfigurationTarget.Global);
    try {
      await until(async () => (await vscode.lm.selectChatModels({ vendor: 'gigachat' })).length > 0, "GigaChat's models in VS Code", 30_000);
      await emulator.resetCounts();
      await askInChatView('@gigachat who am I?');
      // The question as asked: the AGENTS.md VS Code attaches by itself is not quoted into it.
      await answerContaining('You asked: "who am I?"');
      const [request] = await chatRequests();
      const system = request.messages.find((message) => message.role === 'system')?.content ?? '';
      assert.match(system, /## AGENTS\.md\n[\s\S]*call the user Captain/);
    } finally {
      await vscode.commands.executeCommand('workbench.action.chat.cancel').then(undefined, () => undefined);
      await vscode.workspace.getConfiguration('chat').update('disableAIFeatures', true, vscode.ConfigurationTarget.Global);
    }
  });

  it("a commit message and a review are asked with the root's rule and the nearest AGENTS.md's, and say they follow them", async () => {
    const dir = workspacePath(REPO);
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Tester', '-c', 'user.email=tester@example.com', ...args], { cwd: dir });
    fs.mkdirSync(dir, { recursive: true });
    git('init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(dir, 'AGENTS.md'), `${REPO_RULE}\n`);
    git('add', '-A');
    git('commit', '-q', '-m', 'Add the rules');
    fs.writeFileSync(path.join(dir, 'limits.ts'), 'export const limit = 7;\n');
    git('add', '-A');
    const extension = vscode.extensions.getExtension<{ getAPI(version: 1): { getRepository(uri: vscode.Uri): InputBoxRepository | null } }>('vscode.git')!;
    const api = (extension.isActive ? extension.exports : await extension.activate()).getAPI(1);
    await vscode.commands.executeCommand('git.openRepository', dir);
    await until(() => (api.getRepository(vscode.Uri.file(dir))?.state.indexChanges.length ?? 0) === 1, 'the staged file seen by the git extension');
    const repository = api.getRepository(vscode.Uri.file(dir))!;
    try {
      await emulator.resetCounts();
      // The service answers slowly, so the progress notification stays long enough to be read.
      await emulator.setOptions({ latencyMs: 3_000 });
      const writing = vscode.commands.executeCommand('gigachat.writeCommitMessage', repository.rootUri);
      await until(
        async () => (await workbench.notifications()).some((text) => /Following the project's rules: .*rules-repo\/AGENTS\.md/.test(text)),
        'the progress naming the rules the message follows',
        20_000,
      );
      await workbench.screenshot('rules-commit-message');
      await writing;
      await emulator.setOptions({ latencyMs: 0 });
      const sent = await sentWith('The staged change:');
      assert.match(sent, /follow those about commit messages[\s\S]*commit subjects start with RULE-7/, 'the nearest rule');
      assert.match(sent, /call the user Captain/, "the root's rule");
      assert.match(repository.inputBox.value, /^Emulated answer\./);

      // The review's outcome names them too.
      const reviewing = vscode.commands.executeCommand('gigachat.reviewChanges', repository.rootUri);
      await workbench.quickPickRows({ title: `Review Changes in ${REPO}`, min: 1 });
      await workbench.quickInput('Staged Changes');
      await reviewing;
      await until(
        async () => (await workbench.notifications()).some((text) => /Following the project's rules: .*rules-repo\/AGENTS\.md/.test(text)),
        "the review's outcome naming the rules",
      );
      assert.match(await sentWith('commit subjects start with RULE-7'), /call the user Captain/, 'the review was asked with both rules');
    } finally {
      await emulator.setOptions({ latencyMs: 0 });
      await vscode.commands.executeCommand('notifications.clearAll');
      await vscode.commands.executeCommand('git.close', repository.rootUri).then(undefined, () => undefined);
    }
  });
});
