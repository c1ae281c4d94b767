import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FolderExclusions, estimateTokens, parseUnifiedDiff, type DiffFile } from '../../../../src/core';
import { changeDigest, MAX_HUNK_LINES } from '../../../../src/core/scm/changeDigest';
import { commitMessageRequest, streamCommitMessage, UnfinishedCommitMessage, type CommitMessageInput } from '../../../../src/core/scm/commitMessage';
import { rulesJudge, sendableChange } from '../../../../src/core/scm/sendableChange';
import { useEmulator } from '../../support/fixture';

const SECRET = 'GIGACHAT_KEY=c2VjcmV0LXZhbHVlLW5ldmVyLXNlbnQ=';
const PRIVATE_KEY_LINE = '-----BEGIN OPENSSH PRIVATE KEY-----';

/** A real repository: one commit, then a change staged (a source edit, a .env, a forced ignored log, a lock file, a key in a plain name), and an unstaged edit. */
function stagedRepository(): { dir: string; diff: string; history: string[] } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gigachat-commit-'));
  const git = (...args: string[]): string =>
    execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd: dir, encoding: 'utf8' });
  const write = (name: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  };
  git('init', '-q');
  write('.gitignore', '*.log\n');
  write('src/retry.ts', 'export const attempts = 3;\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'feat(retry): first attempt count');
  git('commit', '-q', '--allow-empty', '-m', 'fix(retry): keep the count');
  write('src/retry.ts', 'export const attempts = 5; // staged: more attempts\n');
  write('.env', `${SECRET}\n`);
  write('debug.log', 'ignored log line\n');
  write('package-lock.json', '{ "lockfileVersion": 3 }\n');
  write('notes/deploy.txt', `${PRIVATE_KEY_LINE}\nb3BlbnNzaC1rZXktdjEAAAAA\n`);
  git('add', '-A');
  git('add', '-f', 'debug.log');
  write('src/retry.ts', 'export const attempts = 7; // unstaged\n');
  const history = git('log', '--format=%B%x00')
    .split('\0')
    .map((m) => m.trim())
    .filter(Boolean);
  return { dir, diff: git('diff', '--cached'), history };
}

function bigFile(name: string, hunks: number, linesEach: number): DiffFile {
  return {
    path: name,
    status: 'modified',
    binary: false,
    added: hunks * linesEach,
    removed: 0,
    hunks: Array.from({ length: hunks }, (_, h) => ({
      header: `@@ -${h * 100 + 1},0 +${h * 100 + 1},${linesEach} @@`,
      oldStart: h * 100 + 1,
      oldLines: 0,
      newStart: h * 100 + 1,
      newLines: linesEach,
      lines: Array.from({ length: linesEach }, (_, i) => `+const ${name.replace(/\W/g, '_')}_${h}_${i} = computeSomething(${i});`),
    })),
  };
}

describe('a change as the model may read it', () => {
  let repository: ReturnType<typeof stagedRepository>;
  let rules: FolderExclusions;
  before(async () => {
    repository = stagedRepository();
    rules = await FolderExclusions.open(repository.dir, { home: os.tmpdir(), variables: {} });
  });
  after(() => fs.rmSync(repository.dir, { recursive: true, force: true }));

  it('withholds secrets, ignored files, lock files and an added private key, and keeps their names', async () => {
    const files = await sendableChange(parseUnifiedDiff(repository.diff), rulesJudge(rules));
    const reasons = Object.fromEntries(files.map((file) => [file.path, file.withheld ?? 'sent']));
    assert.deepEqual(reasons, {
      '.env': 'secret',
      'debug.log': 'ignored',
      'notes/deploy.txt': 'secret',
      'package-lock.json': 'generated',
      'src/retry.ts': 'sent',
    });
    const digest = changeDigest(files, 10_000);
    for (const name of ['.env', 'debug.log', 'notes/deploy.txt', 'package-lock.json']) assert.match(digest.text, new RegExp(name.replace('.', '\\.')));
    for (const content of [SECRET, 'ignored log line', 'lockfileVersion', PRIVATE_KEY_LINE])
      assert.ok(!digest.text.includes(content), `${content} is not sent`);
    assert.match(digest.text, /\.env \+1 -0 \(content not sent: the file looks like it holds secrets\)/);
    assert.match(digest.text, /\+export const attempts = 5; \/\/ staged/);
    assert.deepEqual(digest.shortened, []);
    assert.ok(!/Left out/.test(digest.text), 'nothing was left out, so nothing is said');
  });

  it('withholds a renamed secret by its old name too', async () => {
    const renamed: DiffFile = { ...bigFile('config/settings.txt', 1, 2), status: 'renamed', oldPath: 'config/.env' };
    const [file] = await sendableChange([renamed], rulesJudge(rules));
    assert.equal(file.withheld, 'secret');
  });

  it('keeps a large change within the budget: every file listed, the hunks that fit, and what was left out said', () => {
    const files = [bigFile('src/a.ts', 10, 30), bigFile('src/b.ts', 10, 30), bigFile('test/a.test.ts', 10, 30), bigFile('src/new.ts', 1, 500)];
    for (const budget of [1_500, 4_000, 12_000]) {
      const digest = changeDigest(files, budget);
      assert.ok(digest.tokens <= budget, `${digest.tokens} tokens within ${budget}`);
      assert.equal(digest.tokens, estimateTokens(digest.text));
      for (const file of files) assert.match(digest.text, new RegExp(`- modified ${file.path} \\+${file.added} -0`));
      assert.ok(digest.hunksShown > 0 && digest.hunksShown < digest.hunksTotal, `${digest.hunksShown} of ${digest.hunksTotal}`);
      assert.match(digest.text, new RegExp(`Left out for length: ${digest.hunksTotal - digest.hunksShown} of ${digest.hunksTotal} hunks`));
      assert.match(digest.text, /Every changed file is listed above/);
    }
    const small = changeDigest(files, 4_000);
    // Every source file's first hunk before any file's second, and source before tests.
    for (const name of ['src/a.ts', 'src/b.ts']) assert.match(small.text, new RegExp(`--- ${name}`));
    const whole = changeDigest(files, 100_000);
    assert.equal(whole.hunksShown, whole.hunksTotal);
    assert.match(whole.text, new RegExp(`\\(${500 - MAX_HUNK_LINES} more lines of this hunk left out\\)`), 'a hunk too long is cut, and says so');
    assert.deepEqual(whole.shortened, ['src/new.ts: 1 of 1 hunks shown, 1 of them cut']);
  });

  it('names files beyond what the budget can list with their count and statistics', () => {
    const many = Array.from({ length: 3_000 }, (_, i) => bigFile(`src/generated/module-${i}.ts`, 1, 1));
    const digest = changeDigest(many, 2_000);
    assert.ok(digest.tokens <= 2_000, String(digest.tokens));
    assert.match(digest.text, /^3000 files changed, 3000 lines added, 0 removed:/);
    assert.match(digest.text, /…and \d+ more files \(\d+ lines added, 0 removed\), not listed for length\./);
    assert.match(digest.text, /; and \d+ more files\)\. The files listed above are named with their statistics, the rest counted\./);
  });
});

describe('a commit message from the emulator', () => {
  const t = useEmulator({ streamDelayMs: 0 });
  let repository: ReturnType<typeof stagedRepository>;
  before(() => (repository = stagedRepository()));
  after(() => fs.rmSync(repository.dir, { recursive: true, force: true }));

  async function input(): Promise<CommitMessageInput> {
    return {
      scope: 'staged',
      files: parseUnifiedDiff(repository.diff),
      judge: rulesJudge(await FolderExclusions.open(repository.dir, { home: os.tmpdir(), variables: {} })),
      history: repository.history,
      branch: 'feature/ABC-7-retry',
      language: 'auto',
      fallbackLanguage: 'en',
      instructions: '',
      maxInputTokens: 32_768,
    };
  }

  it('sends the staged change and the recent subjects, not the secret, and streams a clean, growing message', async () => {
    const { request } = await commitMessageRequest(await input());
    const shown: string[] = [];
    const message = await streamCommitMessage(t.client, 'GigaChat', request, new AbortController().signal, (text) => shown.push(text));
    const sent = t.emulator.requests.find((r) => r.endpoint === 'chat')!.chat!.messages;
    const all = sent.map((m) => m.content).join('\n');
    assert.equal(sent[0].role, 'system');
    assert.match(all, /attempts = 5; \/\/ staged/);
    assert.match(all, /- fix\(retry\): keep the count/);
    assert.match(all, /Start the subject with the ticket ABC-7/);
    assert.ok(!all.includes('unstaged') && !all.includes(SECRET), 'neither the unstaged edit nor the secret');
    assert.match(all, /\.env/);
    assert.ok(shown.length > 1, 'the message grows as it streams');
    assert.equal(shown.at(-1), message);
    assert.match(message, /^Emulated answer\. You asked:/, 'the bold of the reply is gone');
  });

  it('rejects the content filter’s refusal as no message, though it streamed into the box as one', async () => {
    const { request } = await commitMessageRequest(await input());
    const shown: string[] = [];
    await assert.rejects(
      streamCommitMessage(t.client, 'GigaChat', { ...request, digest: `${request.digest}\n+// [blacklist]` }, new AbortController().signal, (text) =>
        shown.push(text),
      ),
      (error) => error instanceof UnfinishedCommitMessage && error.reason === 'blacklist',
    );
    assert.match(shown.at(-1) ?? '', /I'd rather not talk about that/, 'what the caller must take back out of the box');
  });

  it('rejects a message cut at the model’s output limit, rather than leaving half of it', async () => {
    const { request } = await commitMessageRequest(await input());
    t.emulator.inject({ kind: 'outputLimit', tokens: 6 }, { endpoint: 'chat' });
    await assert.rejects(
      streamCommitMessage(t.client, 'GigaChat', request, new AbortController().signal, () => undefined),
      (error) => error instanceof UnfinishedCommitMessage && error.reason === 'length',
    );
  });

  it('stops when cancelled, with the request closed', async () => {
    const { request } = await commitMessageRequest(await input());
    const controller = new AbortController();
    await assert.rejects(
      streamCommitMessage(t.client, 'GigaChat', { ...request, digest: `${request.digest}\n[long]` }, controller.signal, () => controller.abort()),
      (error: Error & { kind?: string }) => error.kind === 'cancelled',
    );
  });
});
