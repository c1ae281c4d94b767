import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileExclusion } from '../../src/core';

describe("fileExclusion: one file judged by semantic search's rules", () => {
  let folder: string;
  const environment = () => ({ home: path.join(folder, 'home'), variables: {} });

  before(async () => {
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'gigachat-exclusion-'));
    await fs.mkdir(path.join(folder, '.git', 'info'), { recursive: true });
    await fs.writeFile(path.join(folder, '.git', 'info', 'exclude'), 'private/\n');
    await fs.writeFile(path.join(folder, '.gitignore'), '*.log\ngenerated/\n');
    await fs.mkdir(path.join(folder, 'src'), { recursive: true });
    await fs.writeFile(path.join(folder, 'src', '.gitignore'), '!keep.log\n');
  });

  after(() => fs.rm(folder, { recursive: true, force: true }));

  it('lets an ordinary file through', async () => {
    assert.equal(await fileExclusion(folder, 'src/index.ts', environment()), undefined);
  });

  it('refuses secrets, the deny list, and what any .gitignore on the way or the repository excludes', async () => {
    assert.equal(await fileExclusion(folder, '.env', environment()), 'secret');
    assert.equal(await fileExclusion(folder, 'src/keys/server.pem', environment()), 'secret');
    assert.equal(await fileExclusion(folder, 'node_modules/x/index.js', environment()), 'builtIn');
    assert.equal(await fileExclusion(folder, 'debug.log', environment()), 'gitignore');
    assert.equal(await fileExclusion(folder, 'generated/out.js', environment()), 'gitignore');
    assert.equal(await fileExclusion(folder, 'private/notes.md', environment()), 'gitignore');
  });

  it("follows a deeper .gitignore's re-inclusion, as git does", async () => {
    assert.equal(await fileExclusion(folder, 'src/keep.log', environment()), undefined);
    assert.equal(await fileExclusion(folder, 'src/other.log', environment()), 'gitignore');
  });
});
