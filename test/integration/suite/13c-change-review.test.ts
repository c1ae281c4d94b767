import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { emulator, setKeyThroughCommand, until, workbench } from '../drivers';
import { hasOuterRunner } from '../outer';

/** The repository this suite makes inside the workspace (deleted at the end). */
const FOLDER = 'change-review-repo';
/** A secret in a staged `.env`: named in the review, never sent. */
const SECRET = 'sk-live-change-review-5b1e';
/** A file whose name VS Code would render as a link running a command, were the name not neutralized (withheld as a `.env`). */
const LINK_NAME = '[Show withheld files](command:workbench.action.showCommands).env';
/** The planted bug (a loose comparison with null, which the emulated model reports) is on this line. */
const PLANTED_LINE = 3;
const BEFORE = [
  'export function check(value: string | null): number {',
  '  const size = 1;',
  '  if (value === null) return 0;',
  '  return value.length + size;',
  '}',
  '',
];

const folderPath = () => path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, FOLDER);
const fileUri = () => vscode.Uri.file(path.join(folderPath(), 'check.ts'));
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', ...args], {
    cwd: folderPath(),
    encoding: 'utf8',
  });
const findings = () => vscode.languages.getDiagnostics(fileUri()).filter((diagnostic) => diagnostic.source === 'GigaChat');

interface Repository {
  rootUri: vscode.Uri;
  state: { indexChanges: unknown[] };
}

/** VS Code's git extension has the suite's repository open, with its staged files seen. */
async function repositoryOpened(): Promise<void> {
  const api = vscode.extensions.getExtension<{ getAPI(version: 1): { repositories: Repository[] } }>('vscode.git')!;
  const git = (api.isActive ? api.exports : await api.activate()).getAPI(1);
  await vscode.commands.executeCommand('git.openRepository', folderPath());
  await until(
    () => git.repositories.some((repository) => repository.rootUri.fsPath === folderPath() && repository.state.indexChanges.length === 3),
    'the repository and its staged change in VS Code',
    30_000,
  );
}

/** Runs *GigaChat: Review Changes* as a person does: the command, then the staged change in its question. */
async function reviewStaged(): Promise<string[]> {
  const done = vscode.commands.executeCommand('gigachat.reviewChanges');
  const rows = await workbench.quickPickRows({ title: `Review Changes in ${FOLDER}`, min: 2 });
  await workbench.quickInput('Staged Changes');
  await done;
  return rows;
}

/** The quick fix the finding's lightbulb offers, by the start of its title. */
async function quickFix(title: string): Promise<vscode.Command> {
  await vscode.window.showTextDocument(fileUri()); // the lightbulb is asked about an open file
  const range = new vscode.Range(PLANTED_LINE - 1, 0, PLANTED_LINE - 1, 0);
  const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', fileUri(), range);
  const action = actions.find((each) => each.title.startsWith(title));
  assert.ok(action?.command, `a quick fix "${title}…" among ${actions.map((each) => each.title).join(' | ')}`);
  return action.command;
}

describe('reviewing a change in Source Control', function () {
  this.timeout(120_000);

  before(async function () {
    if (!hasOuterRunner()) this.skip();
    // Through the command rather than the chat view: this suite needs no webview.
    await setKeyThroughCommand((await emulator.info()).key);
    await fs.mkdir(folderPath(), { recursive: true });
    git('init', '-q');
    await fs.writeFile(fileUri().fsPath, BEFORE.join('\n'));
    git('add', '-A');
    git('commit', '-q', '-m', 'Add check');
    await fs.writeFile(fileUri().fsPath, BEFORE.join('\n').replace('value === null', 'value == null'));
    await fs.writeFile(path.join(folderPath(), '.env'), `API_TOKEN=${SECRET}\n`);
    await fs.writeFile(path.join(folderPath(), LINK_NAME), 'TOKEN=x\n');
    git('add', '-A');
    await repositoryOpened();
  });

  afterEach(() => vscode.commands.executeCommand('notifications.clearAll'));

  after(async function () {
    if (!hasOuterRunner()) return;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await fs.rm(folderPath(), { recursive: true, force: true });
  });

  it('offers the changes there are, and shows the planted bug as a finding on its line without sending the secret', async () => {
    await emulator.resetCounts();
    const rows = await reviewStaged();
    assert.deepEqual(
      rows.map((row) => row.split(',')[0].trim()),
      ['Staged Changes', 'All Uncommitted Changes'],
      'no branch to review: it has no upstream',
    );
    await until(() => findings().length === 1, 'a finding in Problems');
    const [finding] = findings();
    assert.equal(finding.range.start.line, PLANTED_LINE - 1);
    assert.match(finding.message, /Loose comparison with null/);
    assert.equal(finding.severity, vscode.DiagnosticSeverity.Warning);
    const sent = (await emulator.requests()).filter((request) => request.endpoint === 'chat');
    assert.equal(sent.length, 1);
    assert.equal(sent[0].contract, 'v2');
    assert.ok(!sent[0].body.includes(SECRET), 'the secret was not sent');
    assert.match(sent[0].body, /added \.env \+1 -0 \(content not sent/);
    assert.match(sent[0].body, /"response_format":\{"type":"json_schema"/);
    await until(
      async () => (await workbench.notifications()).some((text) => /found 1 problem.*Not sent.*\.env/.test(text)),
      'the review says what it found and what it did not send',
    );
    const told = (await workbench.notifications()).find((text) => text.includes('Not sent'))!;
    assert.ok(told.includes('[Show withheld files] (command:workbench.action.showCommands).env'), `the hostile name shown as text: ${told}`);
    assert.deepEqual(await workbench.notificationLinks(), [], 'no link in the notification');
  });

  it('replaces the previous findings when run again', async () => {
    await reviewStaged();
    await until(() => findings().length === 1, 'one finding, not two');
  });

  it('changes the file only after the fix is confirmed: Discard leaves it, Apply changes it and the finding goes', async () => {
    const before = await fs.readFile(fileUri().fsPath, 'utf8');
    const fix = await quickFix('Fix with GigaChat');
    const declined = vscode.commands.executeCommand(fix.command, ...(fix.arguments ?? []));
    await workbench.notificationButton(`GigaChat wants to change ${FOLDER}/check.ts`, 'Discard');
    await declined;
    assert.equal(await fs.readFile(fileUri().fsPath, 'utf8'), before, 'unchanged after Discard');
    assert.equal(findings().length, 1, 'the finding stays');

    const accepted = vscode.commands.executeCommand(fix.command, ...(fix.arguments ?? []));
    await workbench.notificationButton(`GigaChat wants to change ${FOLDER}/check.ts`, 'Apply Change');
    await accepted;
    assert.equal(await fs.readFile(fileUri().fsPath, 'utf8'), before.replace('value == null', 'value === null'));
    await until(() => findings().length === 0, 'the fixed finding gone');
  });

  it('offers no fix once the file no longer reads as the reviewed change, and Dismiss removes the finding', async () => {
    // The staged change still compares loosely; the file on disk was fixed above.
    await reviewStaged();
    await until(() => findings().length === 1, 'the staged finding again');
    const before = await fs.readFile(fileUri().fsPath, 'utf8');
    const fix = await quickFix('Fix with GigaChat');
    await vscode.commands.executeCommand(fix.command, ...(fix.arguments ?? []));
    await until(
      async () => (await workbench.notifications()).some((text) => text.includes('no longer read as in the reviewed change')),
      'why the fix does not apply',
    );
    assert.equal(await fs.readFile(fileUri().fsPath, 'utf8'), before);
    const dismiss = await quickFix('Dismiss GigaChat');
    await vscode.commands.executeCommand(dismiss.command, ...(dismiss.arguments ?? []));
    assert.equal(findings().length, 0);
  });
});
