import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readSelectedFiles, selectFiles, type FileSelection, type SkipReason } from '../../../src/core';
import { DiskFolder } from '../support/diskFolder';
import { useFileTrees } from '../support/fileTrees';

const LIMITS = { maxFileBytes: 1024, maxFiles: 1000 };

/** What must never leave the machine: the text of files outside the opened folder. */
const OUTSIDE_TEXT = 'oauth_token: gho_outside_the_workspace';

/** Makes `from` (below `root`) a symbolic link to `to`, as written (relative to the link's folder, or absolute). */
function link(root: string, from: string, to: string): void {
  const at = path.join(root, from);
  fs.mkdirSync(path.dirname(at), { recursive: true });
  fs.symlinkSync(to, at);
}

/** The selected files' paths and every text reading them yields: what indexing would send. */
async function whatIsSent(folder: DiskFolder): Promise<{ selection: FileSelection; paths: string[]; sent: string }> {
  const selection = await selectFiles([folder], LIMITS);
  const texts: string[] = [];
  for await (const file of readSelectedFiles(selection.files, LIMITS.maxFileBytes, () => undefined)) texts.push(file.text);
  return { selection, paths: selection.files.map((file) => file.path), sent: texts.join('\n') };
}

describe('symbolic links in semantic search', () => {
  const tree = useFileTrees();
  /** A folder outside the opened one, holding what a link could point to. */
  const outsideFolder = () =>
    tree({ 'hosts.yml': `${OUTSIDE_TEXT}\n`, 'home/.bashrc': `export TOKEN=1 # ${OUTSIDE_TEXT}\n`, 'home/notes/todo.md': `${OUTSIDE_TEXT}\n` });

  it('a file link and a folder link out of the folder are neither selected nor read; the folder’s own files are', async () => {
    const outside = outsideFolder();
    const root = tree({ 'src/app.ts': 'export const app = 1;\n' });
    link(root, 'src/notes.md', path.join(outside, 'hosts.yml'));
    link(root, 'src/home', path.join(outside, 'home'));
    link(root, 'docs/hosts.md', path.relative(path.join(root, 'docs'), path.join(outside, 'hosts.yml')));
    const { paths, sent } = await whatIsSent(new DiskFolder(root));
    assert.deepEqual(paths, ['src/app.ts']);
    assert.ok(!sent.includes(OUTSIDE_TEXT), 'nothing from outside the folder is read');
  });

  it('a link to a file or folder inside the folder adds nothing: what it points to is indexed once, under its own path', async () => {
    const root = tree({ 'src/app.ts': 'export const app = 1;\n', 'lib/util.ts': 'export const util = 2;\n' });
    link(root, 'src/alias.ts', 'app.ts');
    link(root, 'src/lib', '../lib');
    link(root, 'lib/top', '..'); // back to the folder itself
    assert.deepEqual((await whatIsSent(new DiskFolder(root))).paths, ['lib/util.ts', 'src/app.ts']);
  });

  it('a link to a secret or a git-ignored file of the folder is not sent: the rules judge where it leads', async () => {
    const root = tree({
      '.env': `TOKEN=${OUTSIDE_TEXT}\n`,
      '.gitignore': 'scratch/\n',
      'scratch/private.md': `${OUTSIDE_TEXT}\n`,
      'node_modules/dep/index.js': `// ${OUTSIDE_TEXT}\n`,
      'src/app.ts': 'export const app = 1;\n',
    });
    link(root, 'src/notes.md', '../.env');
    link(root, 'src/ideas.md', '../scratch/private.md');
    link(root, 'src/vendored', '../node_modules/dep');
    const { paths, sent } = await whatIsSent(new DiskFolder(root));
    assert.deepEqual(paths, ['src/app.ts']);
    assert.ok(!sent.includes(OUTSIDE_TEXT));
  });

  it('a chain of links out of the folder, a dangling link and a loop of links are left out, each named once with why', async () => {
    const outside = outsideFolder();
    const root = tree({ 'src/app.ts': 'export const app = 1;\n' });
    link(root, 'src/first.md', 'second.md');
    link(root, 'src/second.md', path.join(outside, 'hosts.yml'));
    link(root, 'src/gone.md', 'missing.md');
    link(root, 'src/ping.md', 'pong.md');
    link(root, 'src/pong.md', 'ping.md');
    link(root, 'src/home', path.join(outside, 'home'));
    link(root, 'src/alias.ts', 'app.ts');
    const { selection, paths, sent } = await whatIsSent(new DiskFolder(root));
    assert.deepEqual(paths, ['src/app.ts']);
    assert.ok(!sent.includes(OUTSIDE_TEXT));
    const links = [...selection.links].map(({ link, reason }) => `${link} ${reason}`).sort();
    assert.deepEqual(links, [
      'src/alias.ts linkWithin',
      'src/first.md linkOutside',
      'src/gone.md linkBroken',
      'src/home linkOutside', // once, for the two files below it
      'src/ping.md linkBroken',
      'src/pong.md linkBroken',
      'src/second.md linkOutside',
    ]);
  });

  it('a folder opened through a link is indexed as usual, and a link that names a file of it by that path stays within', async () => {
    const real = tree({ 'src/app.ts': 'export const app = 1;\n', 'lib/util.ts': 'export const util = 2;\n' });
    const opened = path.join(tree({}), 'project');
    fs.symlinkSync(real, opened);
    link(real, 'src/util.ts', path.join(opened, 'lib', 'util.ts'));
    const { selection, paths } = await whatIsSent(new DiskFolder(opened));
    assert.deepEqual(paths, ['lib/util.ts', 'src/app.ts']);
    assert.deepEqual(selection.links, [{ link: 'src/util.ts', reason: 'linkWithin' }]);
  });

  it('a file replaced by a link after it was selected is not read', async () => {
    const outside = outsideFolder();
    const root = tree({ 'src/app.ts': 'export const app = 1;\n' });
    const selection = await selectFiles([new DiskFolder(root)], LIMITS);
    fs.rmSync(path.join(root, 'src/app.ts'));
    link(root, 'src/app.ts', path.join(outside, 'hosts.yml'));
    const skipped: SkipReason[] = [];
    const read = [];
    for await (const file of readSelectedFiles(selection.files, LIMITS.maxFileBytes, (_, reason) => skipped.push(reason))) read.push(file);
    assert.deepEqual(read, []);
    assert.deepEqual(skipped, ['unreadable']);
  });

  it('files below a link out of the folder do not count against the file limit', async () => {
    const outside = tree(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${i}.md`, `${OUTSIDE_TEXT} ${i}\n`])));
    const root = tree({ 'src/app.ts': 'export const app = 1;\n' });
    link(root, 'a-home', outside); // sorts before src/
    const selection = await selectFiles([new DiskFolder(root)], { ...LIMITS, maxFiles: 5 });
    assert.deepEqual(
      selection.files.map((file) => file.path),
      ['src/app.ts'],
    );
    assert.equal(selection.skipped.get('overLimit'), undefined);
  });

  it('looks at each directory once, however many files it holds', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 600 }, (_, i) => [`src/m${i % 12}/p${Math.floor(i / 12) % 5}/f${i}.ts`, `export const f${i} = ${i};\n`]),
    );
    const root = tree(files);
    link(root, 'src/m0/alias.ts', 'p0/f0.ts');
    const folder = new DiskFolder(root);
    const looked: string[] = [];
    const probe = folder.linkProbe();
    folder.linkProbe = () => ({ ...probe, entries: (directory) => (looked.push(directory), probe.entries(directory)) });
    const selection = await selectFiles([folder], { ...LIMITS, maxFiles: 5000 });
    assert.equal(selection.files.length, 600);
    assert.deepEqual([...looked].sort(), [...new Set(looked)].sort(), 'no directory is listed twice');
    assert.equal(looked.length, 1 + 1 + 12 + 12 * 5, 'the folder, src/ and each directory below it');
  });
});
