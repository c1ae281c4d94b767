import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { selectFiles, type GitEnvironment } from '../../../../../src/core';
import { readExcludesEntries } from '../../../../../src/core/search/files/gitConfig';
import { DiskFolder } from '../../../support/diskFolder';
import { useFileTrees } from '../../../support/fileTrees';

const LIMITS = { maxFileBytes: 1024, maxFiles: 1000 };

describe('git rules from outside the opened folder', () => {
  const make = useFileTrees();

  /** A home directory with the given files, and no system configuration. */
  const homeWith = (files: Record<string, string>, variables: GitEnvironment['variables'] = {}): GitEnvironment => ({
    home: make({ '.keep': '', ...files }),
    variables: { GIT_CONFIG_NOSYSTEM: '1', ...variables },
  });
  const selected = async (folder: string, git?: GitEnvironment) => (await selectFiles([new DiskFolder(folder, git)], LIMITS)).files.map((file) => file.path);

  it('opening a package of a repository leaves out what the .gitignore files above it and info/exclude exclude', async () => {
    const top = make({
      '.gitignore': '*.ts\n', // above the repository: git never reads it
      'repo/.git/HEAD': 'ref: refs/heads/main\n',
      'repo/.git/info/exclude': 'notes.md\n',
      'repo/.gitignore': '*.log\n/packages/app/generated/\ncoverage-report/\n',
      'repo/packages/.gitignore': 'scratch/\n',
      'repo/packages/app/.gitignore': '!keep.log\n',
      'repo/packages/app/src/index.ts': 'export {};\n',
      'repo/packages/app/debug.log': 'token=1\n',
      'repo/packages/app/keep.log': 'kept: the folder’s own .gitignore re-includes it\n',
      'repo/packages/app/generated/api.ts': 'x\n',
      'repo/packages/app/src/generated/types.ts': 'kept: the root pattern is anchored to packages/app/\n',
      'repo/packages/app/coverage-report/index.html': 'x\n',
      'repo/packages/app/scratch/try.ts': 'x\n',
      'repo/packages/app/notes.md': 'x\n',
    });
    const folder = path.join(top, 'repo/packages/app');
    const selection = await selectFiles([new DiskFolder(folder)], LIMITS);
    assert.deepEqual(
      selection.files.map((file) => file.path),
      ['keep.log', 'src/generated/types.ts', 'src/index.ts'],
    );
    assert.equal(selection.skipped.get('gitignore'), 5);
    // A change to any of them calls for a new selection, including a .gitignore not written yet.
    for (const file of ['repo/.gitignore', 'repo/packages/.gitignore', 'repo/.git/info/exclude', 'repo/.git/config']) {
      assert.ok(selection.outsideRuleFiles.includes(path.join(top, file)), `${file} is among the files watched`);
    }
    assert.ok(!selection.outsideRuleFiles.includes(path.join(top, '.gitignore')), 'nothing above the repository is read');
  });

  it('a folder its repository ignores as a whole gives nothing to send', async () => {
    const top = make({ 'repo/.git/HEAD': 'x\n', 'repo/.gitignore': '/vendor/\n', 'repo/vendor/lib/a.ts': 'x\n', 'repo/src/b.ts': 'x\n' });
    assert.deepEqual(await selected(path.join(top, 'repo/vendor/lib')), []);
    assert.deepEqual(await selected(path.join(top, 'repo/src')), ['b.ts']);
  });

  it('a repository nested in the folder’s parent repository (a submodule) starts afresh', async () => {
    const top = make({
      'outer/.git/HEAD': 'x\n',
      'outer/.gitignore': '*.ts\n',
      'outer/module/.git': 'gitdir: ../.git/modules/module\n',
      'outer/.git/modules/module/HEAD': 'x\n',
      'outer/module/a.ts': 'x\n',
    });
    assert.deepEqual(await selected(path.join(top, 'outer/module')), ['a.ts']);
  });

  it('a linked worktree uses the main repository’s info/exclude', async () => {
    const top = make({
      'main/.git/HEAD': 'x\n',
      'main/.git/info/exclude': 'private/\n',
      'main/.git/worktrees/feature/commondir': '../..\n',
      'feature/.git': `gitdir: ../main/.git/worktrees/feature\n`,
      'feature/private/plan.md': 'x\n',
      'feature/src/a.ts': 'x\n',
    });
    assert.deepEqual(await selected(path.join(top, 'feature')), ['src/a.ts']);
  });

  it('a folder holding several clones: each one’s info/exclude applies to its own files, anchored at its root', async () => {
    const folder = make({
      'api/.git/HEAD': 'x\n',
      'api/.git/info/exclude': '/notes.md\nlocal/\n',
      'api/notes.md': 'x\n',
      'api/src/notes.md': 'kept: the pattern is anchored to api/\n',
      'api/local/todo.md': 'x\n',
      'api/.git/worktrees/hotfix/commondir': '../..\n',
      'hotfix/.git': 'gitdir: ../api/.git/worktrees/hotfix\n',
      'hotfix/notes.md': 'x\n',
      'web/.git/HEAD': 'x\n',
      'web/notes.md': 'kept: web excludes nothing\n',
    });
    const selection = await selectFiles([new DiskFolder(folder)], LIMITS);
    assert.deepEqual(
      selection.files.map((file) => file.path),
      ['api/src/notes.md', 'web/notes.md'],
    );
    assert.ok(selection.outsideRuleFiles.includes(path.join(folder, 'api/.git/info/exclude')), 'a change to it calls for a new selection');
  });

  it('the user’s excludes file applies: the default one, the one ~/.gitconfig names, the repository’s choice over both', async () => {
    const folder = make({ '.git/HEAD': 'x\n', 'a.bak': 'x\n', 'b.tmp': 'x\n', 'c.orig': 'x\n', 'keep.ts': 'x\n' });
    assert.deepEqual(await selected(folder, homeWith({ '.config/git/ignore': '*.bak\n' })), ['b.tmp', 'c.orig', 'keep.ts']);
    const named = homeWith({ '.config/git/ignore': '*.bak\n', '.gitconfig': '[core]\n\texcludesFile = ~/.my-ignore\n', '.my-ignore': '*.tmp\n' });
    assert.deepEqual(await selected(folder, named), ['a.bak', 'c.orig', 'keep.ts']);
    fs.writeFileSync(path.join(folder, '.git/config'), `[core]\n\texcludesfile = "${path.join(named.home, '.repo-ignore')}"\n`);
    fs.writeFileSync(path.join(named.home, '.repo-ignore'), '*.orig\n');
    assert.deepEqual(await selected(folder, named), ['a.bak', 'b.tmp', 'keep.ts']);
  });

  it('the excludes file is found through XDG_CONFIG_HOME and GIT_CONFIG_GLOBAL, and applies outside any repository', async () => {
    const folder = make({ 'a.bak': 'x\n', 'b.tmp': 'x\n', 'keep.ts': 'x\n' });
    const xdg = make({ 'git/ignore': '*.bak\n' });
    assert.deepEqual(await selected(folder, homeWith({}, { XDG_CONFIG_HOME: xdg })), ['b.tmp', 'keep.ts']);
    const global = make({ config: '[core]\n  excludesFile = ~/tmp-ignore\n' });
    const git = homeWith(
      { 'tmp-ignore': '*.tmp\n', '.gitconfig': '[core]\n  excludesFile = ~/never-read\n' },
      { GIT_CONFIG_GLOBAL: path.join(global, 'config') },
    );
    assert.deepEqual(await selected(folder, git), ['a.bak', 'keep.ts']);
  });

  it('an excludes file named in an included configuration file counts where it is included, and an include loop ends', async () => {
    const folder = make({ '.git/HEAD': 'x\n', 'a.bak': 'x\n', 'b.tmp': 'x\n', 'keep.ts': 'x\n' });
    const included = homeWith({
      '.gitconfig': '[include]\n  path = .config/git/local.conf\n',
      '.config/git/local.conf': '[core]\n  excludesFile = ~/.my-ignore\n[include]\n  path = local.conf\n', // relative to itself: includes itself
      '.my-ignore': '*.bak\n',
    });
    assert.deepEqual(await selected(folder, included), ['b.tmp', 'keep.ts']);
    const overridden = homeWith({
      '.gitconfig': '[include]\n  path = ~/.gitconfig.local\n[core]\n  excludesFile = ~/.later-ignore\n',
      '.gitconfig.local': '[core]\n  excludesFile = ~/.my-ignore\n',
      '.my-ignore': '*.bak\n',
      '.later-ignore': '*.tmp\n',
    });
    assert.deepEqual(await selected(folder, overridden), ['a.bak', 'keep.ts'], 'a setting after the include wins');
  });

  it('an excludes file in a configuration included on a gitdir or branch condition counts for the repositories it names, not others', async () => {
    const repository = { '.git/HEAD': 'ref: refs/heads/main\n', 'a.internal': 'x\n', 'b.acme': 'x\n', 'keep.ts': 'x\n' };
    const inHome = (directory: string, head = 'ref: refs/heads/main\n') =>
      Object.fromEntries(Object.entries({ ...repository, '.git/HEAD': head }).map(([file, text]) => [`${directory}/${file}`, text]));
    const git = homeWith({
      '.gitconfig': [
        '[includeIf "gitdir:~/work/"]\n  path = ~/.gitconfig-work', // ~/ is the home directory; a trailing / means everything below
        '[includeIf "gitdir/i:./CLIENTS/*/shop/"]\n  path = .gitconfig-acme', // ./ is this file's directory; /i ignores case
        '[includeIf "gitdir:blog/.git"]\n  path = ~/.gitconfig-blog', // no leading / or ~: at any depth
        '[includeIf "onbranch:release/"]\n  path = ~/.gitconfig-branch', // the branch checked out; a trailing / means everything below
        '[includeIf "hasconfig:remote.*.url:https://example.com/**"]\n  path = ~/.gitconfig-branch', // not evaluated: not followed
      ].join('\n'),
      '.gitconfig-work': '[core]\n  excludesFile = ~/.work-ignore\n',
      '.gitconfig-acme': '[core]\n  excludesFile = ~/.acme-ignore\n',
      '.gitconfig-blog': '[core]\n  excludesFile = ~/.acme-ignore\n',
      '.gitconfig-branch': '[core]\n  excludesFile = ~/.branch-ignore\n',
      '.work-ignore': '*.internal\n',
      '.acme-ignore': '*.acme\n',
      '.branch-ignore': '*.ts\n',
      ...inHome('work/api'),
      ...inHome('clients/acme/shop'),
      ...inHome('personal/blog'),
      ...inHome('personal/notes'),
      ...inHome('personal/shipping', 'ref: refs/heads/release/2.0\n'),
      ...inHome('personal/detached', '4b825dc642cb6eb9a060e54bf8d69288fbee4904\n'),
    });
    const at = (directory: string) => selected(path.join(git.home, directory), git);
    assert.deepEqual(await at('work/api'), ['b.acme', 'keep.ts']);
    assert.deepEqual(await at('clients/acme/shop'), ['a.internal', 'keep.ts']);
    assert.deepEqual(await at('personal/blog'), ['a.internal', 'keep.ts']);
    assert.deepEqual(await at('personal/notes'), ['a.internal', 'b.acme', 'keep.ts'], 'no condition holds: the default excludes file, absent here');
    assert.deepEqual(await at('personal/shipping'), ['a.internal', 'b.acme'], 'on release/2.0');
    assert.deepEqual(await at('personal/detached'), ['a.internal', 'b.acme', 'keep.ts'], 'a detached HEAD is on no branch');
  });

  it('the folder’s own .gitignore and info/exclude outrank the user’s excludes file', async () => {
    const folder = make({
      '.git/HEAD': 'x\n',
      '.git/info/exclude': '!local.env.example\n',
      '.gitignore': '!keep.bak\n',
      'keep.bak': 'x\n',
      'other.bak': 'x\n',
      'local.env.example': 'x\n',
    });
    assert.deepEqual(await selected(folder, homeWith({ '.config/git/ignore': '*.bak\n*.example\n' })), ['keep.bak', 'local.env.example']);
  });
});

/** The last `core.excludesFile` a configuration text sets itself, as git reads it. */
const readExcludesFileSetting = (config: string) =>
  readExcludesEntries(config)
    .filter((entry) => entry.key === 'excludesFile')
    .at(-1)?.value;

describe('core.excludesFile in a git configuration file', () => {
  it('reads the value as git does: any case, quotes, comments, escapes, continuation, the last one set', () => {
    assert.equal(readExcludesFileSetting('[core]\n\texcludesFile = ~/.gitignore_global\n'), '~/.gitignore_global');
    assert.equal(readExcludesFileSetting('[Core]\nEXCLUDESFILE=~/a ; a comment\n'), '~/a');
    assert.equal(readExcludesFileSetting('[core]\n excludesfile = "/path/with # hash/ignore" # comment\n'), '/path/with # hash/ignore');
    assert.equal(readExcludesFileSetting('[core]\n excludesfile = C:\\\\Users\\\\me\\\\ignore\n'), 'C:\\Users\\me\\ignore');
    assert.equal(readExcludesFileSetting('[core]\n excludesfile = /a/very/\\\nlong/path\n'), '/a/very/long/path');
    assert.equal(readExcludesFileSetting('[core] excludesFile = /first\n[user]\n name = x\n[core]\n excludesFile = /second\n'), '/second');
    assert.equal(readExcludesFileSetting('[core]\n excludesfile = my ignore file  \n'), 'my ignore file');
  });

  it('ignores what is not core.excludesFile: other sections, subsections, commented lines, a setting without a value', () => {
    assert.equal(readExcludesFileSetting(''), undefined);
    assert.equal(readExcludesFileSetting('[user]\n excludesFile = /wrong-section\n'), undefined);
    assert.equal(readExcludesFileSetting('[core "sub"]\n excludesFile = /subsection\n'), undefined);
    assert.equal(readExcludesFileSetting('[core]\n# excludesFile = /commented\n; excludesFile = /commented\n'), undefined);
    assert.equal(readExcludesFileSetting('[core]\n excludesFile\n'), undefined);
    assert.equal(readExcludesFileSetting('excludesFile = /before-any-section\n'), undefined);
    assert.equal(readExcludesFileSetting('[includeIf "gitdir:~/work/"]\n path = /conditional\n excludesFile = /wrong\n'), undefined);
  });

  it('lists the included files where they are included, among the settings, with their condition as written', () => {
    assert.deepEqual(
      readExcludesEntries(
        '[core]\n excludesFile = /a\n[include]\n path = ~/.gitconfig.local\n[core]\n excludesFile = /b\n[IncludeIf "gitdir/i:~/Work/\\"x\\"/"]\n path = /work.conf\n',
      ),
      [
        { key: 'excludesFile', value: '/a' },
        { key: 'include', value: '~/.gitconfig.local' },
        { key: 'excludesFile', value: '/b' },
        { key: 'include', value: '/work.conf', condition: 'gitdir/i:~/Work/"x"/' },
      ],
    );
    assert.deepEqual(
      readExcludesEntries('[includeIf]\n path = /no-condition\n[include "sub"]\n path = /subsection\n[core\n excludesFile = /broken-header\n'),
      [],
    );
  });
});
