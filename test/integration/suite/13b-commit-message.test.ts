import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { emulator, ensureKey, until, workbench } from '../drivers';
import { hasOuterRunner } from '../outer';

/** The repository this suite makes inside the workspace folder (deleted at the end: semantic search counts the workspace's files). */
const FOLDER = 'commit-repo';
const SECRET = 'GIGACHAT_TEST_SECRET=never-leaves-the-machine';
/** A private key's body line, in a file whose name says nothing of keys: committed, then deleted in the staged change. */
const KEY_BODY = 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW';
const KEY_FILE = `-----BEGIN OPENSSH PRIVATE KEY-----\n${KEY_BODY}\n-----END OPENSSH PRIVATE KEY-----\n`;

interface InputBoxRepository {
  rootUri: vscode.Uri;
  inputBox: { value: string };
  state: { HEAD?: { name?: string }; indexChanges: unknown[] };
}
interface GitApi {
  getRepository(uri: vscode.Uri): InputBoxRepository | null;
}

/** A repository with history, a staged change (an edit, a new .env, a deleted key file), and an edit left unstaged. */
function makeRepository(dir: string): void {
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Tester', '-c', 'user.email=tester@example.com', ...args], { cwd: dir });
  const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text);
  fs.mkdirSync(dir, { recursive: true });
  git('init', '-q', '-b', 'feature/PAY-42-retries');
  write('retry.ts', 'export const attempts = 3;\nexport const delayMs = 100;\n');
  write('bootstrap.txt', KEY_FILE);
  git('add', '-A');
  git('commit', '-q', '-m', 'PAY-40: Add the retry settings');
  write('retry.ts', 'export const attempts = 3;\nexport const delayMs = 250;\n');
  git('commit', '-q', '-am', 'PAY-41: Wait longer between retries');
  write('retry.ts', 'export const attempts = 5; // staged: more attempts\nexport const delayMs = 250;\n');
  write('.env', `${SECRET}\n`);
  fs.rmSync(path.join(dir, 'bootstrap.txt')); // the key deleted: its lines would go as removed lines
  git('add', '-A');
  write('retry.ts', 'export const attempts = 9; // unstaged edit\nexport const delayMs = 250;\n');
}

describe('commit message: GigaChat writes it into the Source Control input box', function () {
  this.timeout(60_000);
  let repository: InputBoxRepository;
  let dir: string;

  before(async function () {
    if (!hasOuterRunner()) this.skip();
    await ensureKey();
    dir = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, FOLDER);
    makeRepository(dir);
    const git = vscode.extensions.getExtension<{ getAPI(version: 1): GitApi }>('vscode.git')!;
    const api = (git.isActive ? git.exports : await git.activate()).getAPI(1);
    // A repository made after the window opened is not scanned for: open it as the user would.
    await vscode.commands.executeCommand('git.openRepository', dir);
    await until(() => api.getRepository(vscode.Uri.file(dir)) !== null, 'the git extension has the repository');
    repository = api.getRepository(vscode.Uri.file(dir))!;
    // The repository is listed before git's first status of it has been read: wait for its branch and staged files.
    await until(
      () => repository.state.HEAD?.name === 'feature/PAY-42-retries' && repository.state.indexChanges.length === 3,
      'the branch and the staged change seen by the git extension',
    );
  });

  after(async function () {
    if (!hasOuterRunner() || !dir) return;
    await vscode.commands.executeCommand('git.close', repository.rootUri).then(undefined, () => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('sends the staged change and the recent subjects, not the unstaged edit, the .env content nor the deleted key, and writes the reply', async () => {
    await emulator.resetCounts();
    repository.inputBox.value = '';
    // What VS Code passes from the Source Control view's title: the repository's SourceControl, which has its root.
    await vscode.commands.executeCommand('gigachat.writeCommitMessage', { rootUri: repository.rootUri });
    const chat = (await emulator.requests()).filter((request) => request.endpoint === 'chat');
    assert.equal(chat.length, 1);
    const sent = chat[0].chat!.messages.map((message) => message.content).join('\n');
    assert.match(sent, /attempts = 5; \/\/ staged: more attempts/, 'the staged edit');
    assert.ok(!sent.includes('unstaged edit'), 'not the unstaged edit');
    assert.match(sent, /\.env/, 'the .env named');
    assert.ok(!sent.includes(SECRET), 'not its content');
    assert.match(sent, /bootstrap\.txt.*content not sent: the file looks like it holds secrets/, 'the deleted key file named, and why its lines are not there');
    assert.ok(!sent.includes(KEY_BODY) && !sent.includes('PRIVATE KEY'), 'not a line of the key it deleted');
    assert.match(sent, /- PAY-41: Wait longer between retries/, 'the recent subjects');
    assert.match(sent, /Start the subject with the ticket PAY-42/, "the branch's ticket, in the history's form");
    assert.match(repository.inputBox.value, /^Emulated answer\. You asked: "The staged change:/, 'the reply, cleaned, in the input box');
  });

  it("has a button in the Source Control view's title that writes the message of that repository", async () => {
    repository.inputBox.value = '';
    await vscode.commands.executeCommand('workbench.view.scm');
    const button = '.monaco-action-bar .action-label[aria-label*="Write Commit Message"]';
    await until(async () => (await workbench.attributes(button, 'aria-label')).length > 0, 'the Write Commit Message button');
    await workbench.screenshot('scm-write-commit-message');
    await workbench.click(button);
    await until(() => repository.inputBox.value.startsWith('Emulated answer.'), 'the message in the input box');
  });

  it("gives back the user's draft when the reply breaks off, says why, and its Retry writes the message", async () => {
    await emulator.inject({ kind: 'resetMidStream', afterEvents: 3 }, { endpoint: 'chat', times: 1 });
    repository.inputBox.value = 'my own draft';
    // As the input box's menu passes it: the repository's root.
    const running = vscode.commands.executeCommand('gigachat.writeCommitMessage', repository.rootUri);
    const shown = await notification(/The connection to GigaChat broke while the reply was arriving/, 'the failure, told');
    // Read back, the box's value follows what was written a moment late.
    await until(() => repository.inputBox.value === 'my own draft', 'the half-written message gone, the draft back');
    await workbench.notificationButton(shown.slice(0, 30), 'Retry');
    await running;
    assert.match(repository.inputBox.value, /^Emulated answer\./);
  });

  it("keeps the user's draft when the service's content filter answers instead of the model, and says so", async () => {
    // A staged file whose text the emulator's content filter refuses (as the service's refuses some topics).
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir });
    fs.writeFileSync(path.join(dir, 'NOTES.md'), 'Release notes [blacklist]\n');
    git('add', 'NOTES.md');
    await until(() => repository.state.indexChanges.length === 4, 'the refused file staged');
    try {
      repository.inputBox.value = 'my own draft';
      const running = vscode.commands.executeCommand('gigachat.writeCommitMessage', repository.rootUri);
      await notification(/content filter refused to write a message for this change, so the box keeps what it held/, 'the refusal, told');
      await until(() => repository.inputBox.value === 'my own draft', 'the draft kept, not the refusal written as the message');
      await vscode.commands.executeCommand('notifications.clearAll');
      await running;
      assert.equal(repository.inputBox.value, 'my own draft');
    } finally {
      git('rm', '-q', '--cached', 'NOTES.md');
      fs.rmSync(path.join(dir, 'NOTES.md'));
    }
  });

  it('says when there is nothing to commit, with a button that opens Source Control', async () => {
    execFileSync('git', ['-c', 'user.name=Tester', '-c', 'user.email=tester@example.com', 'commit', '-q', '-am', 'PAY-42: More attempts'], { cwd: dir });
    const running = vscode.commands.executeCommand('gigachat.writeCommitMessage', repository.rootUri);
    const shown = await notification(/Nothing to commit in commit-repo/, 'nothing to commit, told');
    await workbench.notificationButton(shown.slice(0, 30), 'Open Source Control');
    await running;
  });

  it('with nothing staged, describes what VS Code then commits: every change, untracked files too', async () => {
    fs.writeFileSync(path.join(dir, 'retry.ts'), 'export const attempts = 6; // tracked, not staged\nexport const delayMs = 250;\n');
    fs.writeFileSync(path.join(dir, 'backoff.ts'), 'export const factor = 2; // a new file, untracked\n');
    await emulator.resetCounts();
    await vscode.commands.executeCommand('gigachat.writeCommitMessage', repository.rootUri);
    const chat = (await emulator.requests()).filter((request) => request.endpoint === 'chat');
    const sent = chat
      .at(-1)!
      .chat!.messages.map((message) => message.content)
      .join('\n');
    assert.match(sent, /nothing is staged, so all of it will be committed/);
    assert.match(sent, /attempts = 6; \/\/ tracked, not staged/);
    assert.match(sent, /- added backoff\.ts \+1 -0/);
    assert.match(sent, /factor = 2; \/\/ a new file, untracked/);
  });
});

/** The text of the notification matching `message`, once shown. */
async function notification(message: RegExp, what: string): Promise<string> {
  let text = '';
  await until(async () => Boolean((text = (await workbench.notifications()).find((shown) => message.test(shown)) ?? '')), what);
  return text;
}
