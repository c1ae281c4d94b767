import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { WorkspaceFiles, type PathVerdict, type WorkspaceFolderAccess } from '../../../../src/core';
import { directory, FakeFolder, link, writeDiskFolder, type FolderSpec } from '../../support/fakeWorkspace';

/** What a user would notice of a verdict: the file reached (and whether it is new), or why it was refused. */
function summary(verdict: PathVerdict<WorkspaceFolderAccess>): string {
  if (!verdict.ok) return verdict.reason;
  return `${verdict.label}${verdict.exists ? '' : ' (new)'}`;
}

/** Each path's summary, all at once: a failure shows every path that went wrong. */
async function summaries(files: WorkspaceFiles<WorkspaceFolderAccess>, givens: readonly string[]): Promise<Record<string, string>> {
  const verdicts = await Promise.all(givens.map((given) => files.resolve(given)));
  return Object.fromEntries(givens.map((given, index) => [given, summary(verdicts[index])]));
}

/**
 * A project as a hostile repository ships it: links that give secrets innocent names, a link out
 * of the folder, secrets, ignored files. The folder's parent is the home directory, which holds `.ssh`.
 */
const PROJECT: FolderSpec = {
  name: 'proj',
  files: {
    'src/a.ts': 'export const a = 1;\n',
    'src/.gitignore': 'generated/\n',
    'src/generated/api.ts': 'export {};\n',
    '.gitignore': '*.log\nprivate/\n',
    'debug.log': 'log\n',
    'private/notes.md': 'private\n',
    'repo-excluded.txt': 'excluded by info/exclude\n',
    '.env': 'TOKEN=secret\n',
    'config/.env.local': 'TOKEN=secret\n',
    id_rsa: 'KEY\n',
    '.git/config': '[core]\n',
    'sub/.git': 'gitdir: ../.git/modules/sub\n',
    'docs/readme.md': '# Docs\n',
    'docs/notes.md': link('../.env'),
    'docs/gitcfg.txt': link('../.git/config'),
    'docs/alias.md': link('readme.md'),
    'docs/broken.md': link('missing.md'),
    lib: link('../.ssh'),
    empty: directory,
  },
  excludes: 'repo-excluded.txt\n',
};

/** The project on one kind of disk: where it is, its home, and how that disk writes a file: URI. */
interface World {
  files: () => WorkspaceFiles<WorkspaceFolderAccess>;
  diskPath: string;
  home: string;
  fileUri: (diskPath: string) => string;
}

const WORLDS: Array<{ title: string; make: () => Promise<World & { dispose?: () => Promise<void> }> }> = [
  {
    title: 'a fake folder in memory',
    make: async () => {
      const folder = new FakeFolder(PROJECT, { diskPath: '/home/user/proj' });
      return {
        files: () => new WorkspaceFiles([folder], { home: '/home/user' }),
        diskPath: '/home/user/proj',
        home: '/home/user',
        fileUri: (p) => `file://${p}`,
      };
    },
  },
  {
    title: 'a real folder on disk with real symbolic links',
    make: async () => {
      const home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gigachat-workspace-')));
      await fs.mkdir(path.join(home, '.ssh'));
      await fs.writeFile(path.join(home, '.ssh', 'known_hosts'), 'host\n');
      const folder = await writeDiskFolder(path.join(home, 'proj'), PROJECT);
      return {
        files: () => new WorkspaceFiles([folder], { home }),
        diskPath: folder.diskPath!,
        home,
        fileUri: (p) => pathToFileURL(p).href,
        dispose: () => fs.rm(home, { recursive: true, force: true }),
      };
    },
  },
];

for (const { title, make } of WORLDS) {
  describe(`WorkspaceFiles on ${title}`, () => {
    let world: World & { dispose?: () => Promise<void> };
    before(async () => {
      world = await make();
    });
    after(() => world.dispose?.());

    it('reaches ordinary files however the path is written, and new files to be created', async () => {
      const { diskPath, fileUri } = world;
      const givens = ['src/a.ts', './src//a.ts', 'src\\a.ts', 'docs/../src/a.ts', `${diskPath}/src/a.ts`, '~/proj/src/a.ts', fileUri(`${diskPath}/src/a.ts`)];
      const expected = Object.fromEntries(givens.map((given) => [given, 'src/a.ts']));
      assert.deepEqual(await summaries(world.files(), [...givens, 'src/new.ts', 'newdir/deeper/new.ts', 'docs/readme.md']), {
        ...expected,
        'src/new.ts': 'src/new.ts (new)',
        'newdir/deeper/new.ts': 'newdir/deeper/new.ts (new)',
        'docs/readme.md': 'docs/readme.md',
      });
    });

    it('refuses what lies outside the folder, by .. or by an absolute path, a home path or a URI', async () => {
      const { diskPath, home, fileUri } = world;
      const givens = [
        '../x',
        'a/../../x',
        '/etc/passwd',
        `${diskPath}/../.ssh/known_hosts`,
        `${diskPath}-other/a.ts`,
        '~/.ssh/known_hosts',
        'file:///etc/passwd',
        'vscode-remote://ssh-remote+host/etc/passwd',
        fileUri(`${home}/.ssh/known_hosts`),
      ];
      assert.deepEqual(await summaries(world.files(), givens), Object.fromEntries(givens.map((given) => [given, 'outside'])));
    });

    it('refuses every symbolic link, wherever it leads, and a path below one', async () => {
      const givens = ['docs/notes.md', 'docs/gitcfg.txt', 'lib', 'lib/known_hosts', 'docs/alias.md', 'docs/broken.md'];
      assert.deepEqual(await summaries(world.files(), givens), Object.fromEntries(givens.map((given) => [given, 'link'])));
    });

    it('never says where a link leads', async () => {
      const files = world.files();
      for (const given of ['docs/notes.md', 'docs/gitcfg.txt', 'lib/known_hosts']) {
        const verdict = await files.resolve(given);
        assert.ok(!verdict.ok && !/\.env|\.git\/|\.ssh/.test(verdict.message), `${given}: ${!verdict.ok && verdict.message}`);
      }
    });

    it('refuses secrets, version control, and what .gitignore or the repository excludes', async () => {
      assert.deepEqual(
        await summaries(world.files(), [
          '.env',
          'config/.env.local',
          'id_rsa',
          '.git/config',
          '.git',
          'sub/.git',
          'debug.log',
          'private/notes.md',
          'src/generated/api.ts',
          'repo-excluded.txt',
        ]),
        {
          '.env': 'secret',
          'config/.env.local': 'secret',
          id_rsa: 'secret',
          '.git/config': 'builtIn',
          '.git': 'builtIn',
          'sub/.git': 'builtIn',
          'debug.log': 'gitignore',
          'private/notes.md': 'gitignore',
          'src/generated/api.ts': 'gitignore',
          'repo-excluded.txt': 'gitignore',
        },
      );
    });

    it('refuses names a file system could read as another file, the folder itself and a folder', async () => {
      const givens = [
        '',
        '.',
        world.diskPath,
        'docs',
        'empty',
        '.env.',
        'docs /readme.md',
        'GIT~1/config',
        'src/a.ts::$DATA',
        'CON.txt',
        'src/nul',
        'src/a?.ts',
        'src/a\u0000.ts',
      ];
      assert.deepEqual(await summaries(world.files(), givens), Object.fromEntries(givens.map((given) => [given, 'badName'])));
    });

    it('says a folder is a folder', async () => {
      const verdict = await world.files().resolve('docs');
      assert.ok(!verdict.ok && /docs is a folder/.test(verdict.message));
    });
  });
}

describe('WorkspaceFiles on folders of other kinds (in memory)', () => {
  const judge = (folders: FakeFolder[], givens: readonly string[], options: { home?: string } = {}) => summaries(new WorkspaceFiles(folders, options), givens);

  it('refuses everything when no folder is open', async () => {
    assert.deepEqual(await summaries(new WorkspaceFiles([]), ['src/a.ts']), { 'src/a.ts': 'noFolder' });
  });

  it('never looks below a symbolic link', async () => {
    const folder = new FakeFolder(PROJECT, { diskPath: '/home/user/proj' });
    await summaries(new WorkspaceFiles([folder]), ['lib/known_hosts', 'lib/deeper/id_rsa', 'docs/notes.md']);
    assert.deepEqual(folder.askedThroughLinks, []);
  });

  it('refuses a link given as an absolute target out of the folder, below it too', async () => {
    const folder = new FakeFolder({ files: { 'src/a.ts': '', lib: link('/home/user/.ssh') } }, { diskPath: '/home/user/proj' });
    assert.deepEqual(await judge([folder], ['lib', 'lib/id_ed25519.pub', 'src/a.ts']), { lib: 'link', 'lib/id_ed25519.pub': 'link', 'src/a.ts': 'src/a.ts' });
  });

  it('refuses ~ when the home directory is not known', async () => {
    const folder = new FakeFolder({ files: { 'src/a.ts': '' } }, { diskPath: '/home/user/proj' });
    assert.deepEqual(await judge([folder], ['~/proj/src/a.ts', '~bob/proj/src/a.ts']), { '~/proj/src/a.ts': 'outside', '~bob/proj/src/a.ts': 'outside' });
  });

  describe('a virtual folder (not on this disk)', () => {
    const virtual = () =>
      new FakeFolder({
        files: {
          'src/a.ts': '',
          '.env': 'TOKEN=secret\n',
          '.gitignore': 'notes-private.md\n',
          'notes-private.md': '',
          'docs/notes.md': link('../.env'),
          'docs/inside.md': link('../src/a.ts'),
        },
      });

    it('applies the name rules and its own .gitignore', async () => {
      assert.deepEqual(await judge([virtual()], ['src/a.ts', '.env', 'notes-private.md', '.git/config']), {
        'src/a.ts': 'src/a.ts',
        '.env': 'secret',
        'notes-private.md': 'gitignore',
        '.git/config': 'builtIn',
      });
    });

    it('refuses its links, which cannot be followed there', async () => {
      assert.deepEqual(await judge([virtual()], ['docs/notes.md', 'docs/inside.md']), { 'docs/notes.md': 'link', 'docs/inside.md': 'link' });
    });

    it('takes no absolute path for it, having no place on disk', async () => {
      assert.deepEqual(await judge([virtual()], ['/proj/src/a.ts', 'file:///proj/src/a.ts']), {
        '/proj/src/a.ts': 'outside',
        'file:///proj/src/a.ts': 'outside',
      });
    });
  });

  describe('a folder that ignores case (Windows, macOS)', () => {
    const files = {
      'src/a.ts': '',
      '.env': 'TOKEN=secret\n',
      '.git/config': '[core]\n',
      'docs/notes.md': link('../.env'),
      // macOS stores names decomposed: "café" as "cafe" + a combining accent.
      'cafe\u0301.ts': '',
    };
    const folder = () => new FakeFolder({ files }, { diskPath: '/Users/me/Proj', caseInsensitive: true });

    it('judges and labels each existing part by its real name', async () => {
      assert.deepEqual(await judge([folder()], ['.ENV', '.Git/Config', 'DOCS/NOTES.MD', 'Src/A.ts', 'SRC/New.ts', '/users/me/proj/SRC/a.ts']), {
        '.ENV': 'secret',
        '.Git/Config': 'builtIn',
        'DOCS/NOTES.MD': 'link',
        'Src/A.ts': 'src/a.ts',
        'SRC/New.ts': 'src/New.ts (new)',
        '/users/me/proj/SRC/a.ts': 'src/a.ts',
      });
    });

    it('names a link by its real name, not as it was given', async () => {
      const verdict = await new WorkspaceFiles([folder()]).resolve('DOCS/NOTES.MD');
      assert.ok(!verdict.ok && verdict.message.startsWith('docs/notes.md is a symbolic link'), !verdict.ok ? verdict.message : '');
    });

    it('finds a decomposed name given composed', async () => {
      const verdict = await new WorkspaceFiles([folder()]).resolve('caf\u00e9.ts');
      assert.deepEqual(verdict.ok && [verdict.path, verdict.exists], ['cafe\u0301.ts', true]);
    });

    it('keeps the given case where case matters', async () => {
      const sensitive = new FakeFolder({ files }, { diskPath: '/home/me/proj' });
      assert.deepEqual(await judge([sensitive], ['Src/A.ts', 'src/a.ts']), { 'Src/A.ts': 'Src/A.ts (new)', 'src/a.ts': 'src/a.ts' });
    });
  });

  describe('a folder on Windows', () => {
    const files = { 'src/a.ts': '', '.env': 'TOKEN=secret\n' };

    it('reads paths in Windows style, with either separator, in any case', async () => {
      const folder = new FakeFolder({ files }, { diskPath: 'C:\\proj', caseInsensitive: true });
      assert.deepEqual(
        await judge(
          [folder],
          [
            'C:\\proj\\src\\a.ts',
            'c:/PROJ/Src/A.ts',
            'file:///C:/proj/src/a.ts',
            'file:///c%3A/proj/src/a.ts',
            '~\\proj\\src\\a.ts',
            'C:\\proj\\.env',
            'C:\\proj\\.ENV.',
            'C:\\proj',
            'C:\\proj\\..\\secrets.txt',
            'C:\\project\\a.ts',
            'D:\\proj\\src\\a.ts',
            '\\\\server\\share\\proj\\a.ts',
            '/proj/src/a.ts',
          ],
          { home: 'C:\\' },
        ),
        {
          'C:\\proj\\src\\a.ts': 'src/a.ts',
          'c:/PROJ/Src/A.ts': 'src/a.ts',
          'file:///C:/proj/src/a.ts': 'src/a.ts',
          'file:///c%3A/proj/src/a.ts': 'src/a.ts',
          '~\\proj\\src\\a.ts': 'src/a.ts',
          'C:\\proj\\.env': 'secret',
          'C:\\proj\\.ENV.': 'badName',
          'C:\\proj': 'badName',
          'C:\\proj\\..\\secrets.txt': 'outside',
          'C:\\project\\a.ts': 'outside',
          'D:\\proj\\src\\a.ts': 'outside',
          '\\\\server\\share\\proj\\a.ts': 'outside',
          '/proj/src/a.ts': 'outside',
        },
      );
    });

    it("reaches a folder on a server's share", async () => {
      const folder = new FakeFolder({ files }, { diskPath: '\\\\server\\share\\proj', caseInsensitive: true });
      assert.deepEqual(
        await judge([folder], ['\\\\SERVER\\share\\proj\\src\\a.ts', 'file://server/share/proj/src/a.ts', '\\\\server\\other\\proj\\src\\a.ts']),
        {
          '\\\\SERVER\\share\\proj\\src\\a.ts': 'src/a.ts',
          'file://server/share/proj/src/a.ts': 'src/a.ts',
          '\\\\server\\other\\proj\\src\\a.ts': 'outside',
        },
      );
    });
  });

  describe('a workspace of several folders', () => {
    const app = () => new FakeFolder({ name: 'app', files: { 'src/a.ts': '' } }, { diskPath: '/w/app' });
    const second = () => new FakeFolder({ name: 'second', files: { 'src/b.ts': '', '.env': 'TOKEN=secret\n' } }, { diskPath: '/w/second' });

    it("places a path by a folder's name, or in the first folder, and labels it with the folder's name", async () => {
      assert.deepEqual(await judge([app(), second()], ['second/src/b.ts', 'src/a.ts', '/w/second/src/b.ts', 'second/../app/src/a.ts', 'second/.env']), {
        'second/src/b.ts': 'second/src/b.ts',
        'src/a.ts': 'app/src/a.ts',
        '/w/second/src/b.ts': 'second/src/b.ts',
        'second/../app/src/a.ts': 'app/src/a.ts',
        'second/.env': 'secret',
      });
    });

    it('gives the folder it found with the path', async () => {
      const folders = [app(), second()];
      const verdict = await new WorkspaceFiles(folders).resolve('second/src/b.ts');
      assert.ok(verdict.ok && verdict.folder === folders[1] && verdict.path === 'src/b.ts');
    });

    it('places an absolute path in the innermost folder holding it', async () => {
      const outer = new FakeFolder({ name: 'w', files: { 'inner/x.ts': '' } }, { diskPath: '/w' });
      const inner = new FakeFolder({ name: 'inner', files: { 'x.ts': '' } }, { diskPath: '/w/inner' });
      assert.deepEqual(await judge([outer, inner], ['/w/inner/x.ts']), { '/w/inner/x.ts': 'inner/x.ts' });
    });
  });

  describe('judge: a path already known to lie in a folder', () => {
    it('applies the same checks', async () => {
      const folder = new FakeFolder(PROJECT, { diskPath: '/home/user/proj' });
      const files = new WorkspaceFiles([folder]);
      const verdicts = await Promise.all(['src/a.ts', 'docs/notes.md', '.env', 'debug.log', '../x'].map((relative) => files.judge(folder, relative)));
      assert.deepEqual(verdicts.map(summary), ['src/a.ts', 'link', 'secret', 'gitignore', 'outside']);
    });
  });

  it('reads the rules once per folder, also for paths asked about at once', async () => {
    const folder = new FakeFolder(PROJECT, { diskPath: '/home/user/proj' });
    const files = new WorkspaceFiles([folder]);
    await Promise.all(['src/a.ts', 'src/b.ts', 'debug.log', 'src/generated/api.ts', 'README.md'].map((given) => files.resolve(given)));
    assert.deepEqual([folder.calls.readRepositoryRules, folder.calls.readFile.get('.gitignore'), folder.calls.readFile.get('src/.gitignore')], [1, 1, 1]);
  });
});
