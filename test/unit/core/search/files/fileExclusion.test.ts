import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FolderExclusions } from '../../../../../src/core';

describe("FolderExclusions: files judged one by one by semantic search's rules", () => {
  let folder: string;
  const environment = () => ({ home: path.join(folder, 'home'), variables: {} });
  /** One question, with the rules read for it alone. */
  const exclusion = async (relativePath: string) => (await FolderExclusions.open(folder, environment())).exclusion(relativePath);

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
    assert.equal(await exclusion('src/index.ts'), undefined);
  });

  it('refuses secrets, the deny list, and what any .gitignore on the way or the repository excludes', async () => {
    assert.equal(await exclusion('.env'), 'secret');
    assert.equal(await exclusion('src/keys/server.pem'), 'secret');
    assert.equal(await exclusion('node_modules/x/index.js'), 'builtIn');
    assert.equal(await exclusion('debug.log'), 'gitignore');
    assert.equal(await exclusion('generated/out.js'), 'gitignore');
    assert.equal(await exclusion('private/notes.md'), 'gitignore');
  });

  it("follows a deeper .gitignore's re-inclusion, as git does", async () => {
    assert.equal(await exclusion('src/keep.log'), undefined);
    assert.equal(await exclusion('src/other.log'), 'gitignore');
  });

  it('answers many paths from one reading of the rules, in any order, also at once', async () => {
    const exclusions = await FolderExclusions.open(folder, environment());
    const answers = await Promise.all(['src/other.log', 'src/keep.log', 'debug.log', 'src/index.ts', '.env'].map((file) => exclusions.exclusion(file)));
    assert.deepEqual(answers, ['gitignore', undefined, 'gitignore', undefined, 'secret']);
  });
});
