import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { addedLines, parseUnifiedDiff } from '../../../../src/core/scm/unifiedDiff';

/** A real repository with one commit, then `change` applied and staged; the staged diff as git prints it. */
function stagedDiff(files: Record<string, string>, change: (dir: string) => void): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gigachat-diff-'));
  const git = (...args: string[]): string =>
    execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', '-c', 'core.quotepath=true', ...args], { cwd: dir, encoding: 'utf8' });
  try {
    git('init', '-q');
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
    git('add', '-A');
    git('commit', '-q', '-m', 'first');
    change(dir);
    git('add', '-A');
    return git('diff', '--cached', '-M');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('unified diff', () => {
  it('reads each file of a staged change with its status, hunks and counts', () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
    const diff = stagedDiff({ 'a.ts': lines.join('\n') + '\n', 'gone.txt': 'bye\n', 'old name.md': 'x\ny\nz\nw\n' }, (dir) => {
      const changed = [...lines];
      changed[9] = 'line ten, changed';
      changed.splice(15, 0, 'inserted');
      fs.writeFileSync(path.join(dir, 'a.ts'), changed.join('\n') + '\n');
      fs.rmSync(path.join(dir, 'gone.txt'));
      fs.renameSync(path.join(dir, 'old name.md'), path.join(dir, 'new name.md'));
      fs.writeFileSync(path.join(dir, 'привет.txt'), 'new\nfile');
      fs.writeFileSync(path.join(dir, 'image.bin'), Buffer.from([0, 1, 2, 0, 255]));
    });
    const files = parseUnifiedDiff(diff);
    const byPath = new Map(files.map((file) => [file.path, file]));
    assert.deepEqual([...byPath.keys()].sort(), ['a.ts', 'gone.txt', 'image.bin', 'new name.md', 'привет.txt']);

    const edited = byPath.get('a.ts')!;
    assert.equal(edited.status, 'modified');
    assert.equal(edited.added, 2);
    assert.equal(edited.removed, 1);
    assert.deepEqual(edited.hunks.flatMap(addedLines), [10, 16]);
    for (const hunk of edited.hunks) {
      assert.equal(hunk.lines.filter((line) => !line.startsWith('-')).length, hunk.newLines);
      assert.equal(hunk.lines.filter((line) => !line.startsWith('+')).length, hunk.oldLines);
    }

    assert.equal(byPath.get('gone.txt')!.status, 'deleted');
    assert.equal(byPath.get('gone.txt')!.removed, 1);
    assert.deepEqual({ status: byPath.get('new name.md')!.status, oldPath: byPath.get('new name.md')!.oldPath }, { status: 'renamed', oldPath: 'old name.md' });
    const added = byPath.get('привет.txt')!;
    assert.equal(added.status, 'added');
    assert.deepEqual(added.hunks[0].lines, ['+new', '+file'], 'the "no newline" marker is not a line of the file');
    assert.equal(byPath.get('image.bin')!.binary, true);
  });

  it('gives no files for text that is not a diff', () => {
    assert.deepEqual(parseUnifiedDiff(''), []);
    assert.deepEqual(parseUnifiedDiff('fatal: not a git repository\n@@ -1 +1 @@\n+x'), []);
  });
});
