import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readRegularFile } from '../../../../src/core/workspace/regularFileRead';

/** An untracked file of a change is read as an added file: a device, a pipe or a link is judged before any byte is. */
describe('readRegularFile: only a regular file, and only so much of it', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'regular-read-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads a regular file whole', async () => {
    fs.writeFileSync(path.join(dir, 'a.ts'), 'export const a = 1;\n');
    const read = await readRegularFile(path.join(dir, 'a.ts'), 1024);
    assert.equal(read.kind === 'read' && Buffer.from(read.bytes).toString(), 'export const a = 1;\n');
  });

  it('refuses a link to /dev/zero and a FIFO at once, neither reading forever nor hanging', async function () {
    if (process.platform === 'win32') this.skip();
    fs.symlinkSync('/dev/zero', path.join(dir, 'zero.txt'));
    execFileSync('mkfifo', [path.join(dir, 'pipe.txt')]);
    assert.equal((await readRegularFile(path.join(dir, 'zero.txt'), 1024)).kind, 'unreadable', 'a link is not followed');
    assert.equal((await readRegularFile('/dev/zero', 1024)).kind, 'notRegular');
    assert.equal((await readRegularFile(path.join(dir, 'pipe.txt'), 1024)).kind, 'notRegular');
  });

  it('refuses a file larger than the bound without reading it', async () => {
    fs.writeFileSync(path.join(dir, 'big.txt'), 'x'.repeat(2048));
    assert.equal((await readRegularFile(path.join(dir, 'big.txt'), 1024)).kind, 'tooLarge');
  });
});
