import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { readExcludesEntries } from './gitConfig';
import { includeConditionHolds, type IncludeContext } from './includeIf';

/** How deep `[include]` files are followed, as in git. */
const MAX_INCLUDE_DEPTH = 10;

/** Where the user's git configuration lives: the home directory and the variables git reads. */
export interface GitEnvironment {
  home: string;
  /** `XDG_CONFIG_HOME`, `GIT_CONFIG_GLOBAL`, `GIT_CONFIG_NOSYSTEM` as the process sees them. */
  variables: Readonly<Record<string, string | undefined>>;
}

/** Ignore rules that apply to a workspace folder but live outside it. */
export interface RepositoryRules {
  /** The folder relative to its repository's root, with `/` ('' when it is the root or in no repository). */
  folderPath: string;
  /** Lowest precedence first; `directory` is relative to the repository root ('' for the root). */
  sources: Array<{ directory: string; content: string }>;
  /** Every file consulted, present or not: a change to one of them can change what is excluded. */
  consulted: string[];
}

/**
 * What git would also apply to the files of `folder`, beyond the folder's own `.gitignore` files:
 * the user's excludes file (`core.excludesFile`, by default `~/.config/git/ignore`), the
 * repository's `info/exclude`, the `.gitignore` files of the directories between the repository's
 * root and the folder, and the `info/exclude` of each repository inside the folder (a folder that
 * holds several clones). Opening `repo/packages/app` must not send what `repo/.gitignore` excludes.
 * The excludes file applies even outside any repository: it names what the user never wants
 * shared. Files that cannot be read count as empty; nothing here throws.
 *
 * @param listed the folder's files (relative, `/`-separated): their directories are where
 *   repositories inside the folder are looked for.
 */
export async function readRepositoryRules(folder: string, environment: GitEnvironment, listed: readonly string[] = []): Promise<RepositoryRules> {
  const repository = await findRepository(folder);
  const root = repository?.root ?? folder;
  const consulted: string[] = [];
  const read = async (file: string): Promise<string | undefined> => {
    consulted.push(file);
    return fs.readFile(file, 'utf8').catch(() => undefined);
  };

  let excludesFile = defaultExcludesFile(environment);
  // Read only when a configuration has an `[includeIf …]`: most have none.
  let conditionFacts: Promise<Pick<IncludeContext, 'gitDirs' | 'branch'>> | undefined;
  const holds = async (condition: string, configDir: string) => {
    conditionFacts ??= repositoryFacts(repository);
    return includeConditionHolds(condition, { ...(await conditionFacts), configDir, home: environment.home });
  };
  const readConfig = async (config: string, depth: number): Promise<void> => {
    const configDir = path.dirname(config);
    for (const { key, value, condition } of readExcludesEntries((await read(config)) ?? '')) {
      if (key === 'excludesFile') excludesFile = value && expandPath(value, environment.home, root);
      // An included file counts where it is included; git stops at this depth too (a loop ends there).
      else if (value && depth < MAX_INCLUDE_DEPTH && (condition === undefined || (await holds(condition, configDir)))) {
        await readConfig(expandPath(value, environment.home, configDir), depth + 1);
      }
    }
  };
  for (const config of configFiles(environment, repository?.commonDir)) await readConfig(config, 0);

  const sources: RepositoryRules['sources'] = [];
  const add = (directory: string, content: string | undefined) => content && sources.push({ directory, content });
  if (excludesFile) add('', await read(excludesFile));
  // The directories from the repository's root down to the folder ([] when it is the root, or in no repository).
  const between = path.relative(root, folder).split(path.sep).filter(Boolean);
  if (repository) {
    add('', await read(path.join(repository.commonDir, 'info', 'exclude')));
    // The folder's own .gitignore is among its files; the ones above it are read here.
    for (let depth = 0; depth < between.length; depth++) {
      add(between.slice(0, depth).join('/'), await read(path.join(root, ...between.slice(0, depth), '.gitignore')));
    }
  }
  const folderPath = between.join('/');
  for (const directory of directoriesOf(listed)) {
    const nested = await repositoryAt(path.join(folder, ...directory.split('/')));
    if (nested) add(path.posix.join(folderPath, directory), await read(path.join(nested.commonDir, 'info', 'exclude')));
  }
  return { folderPath, sources, consulted };
}

interface Repository {
  /** The working tree's root. */
  root: string;
  /** Its git directory: `.git`, or the one a `.git` file points to (a linked worktree's, a submodule's). */
  gitDir: string;
  /** Where `info/exclude` and `config` live (for a linked worktree, the main repository's git directory). */
  commonDir: string;
}

/** The repository `folder` lies in, as git finds it: the nearest directory upwards with a `.git`. */
async function findRepository(folder: string): Promise<Repository | undefined> {
  for (let directory = path.resolve(folder); ; directory = path.dirname(directory)) {
    const repository = await repositoryAt(directory);
    if (repository) return repository;
    if (path.dirname(directory) === directory) return undefined;
  }
}

/** The repository whose working tree's root is `directory`, if it is one. */
async function repositoryAt(directory: string): Promise<Repository | undefined> {
  const dotGit = path.join(directory, '.git');
  const stat = await fs.stat(dotGit).catch(() => undefined);
  if (stat?.isDirectory()) return { root: directory, gitDir: dotGit, commonDir: await commonDirOf(dotGit) };
  if (!stat?.isFile()) return undefined;
  // A linked worktree or a submodule: `.git` is a file naming the git directory.
  const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(await fs.readFile(dotGit, 'utf8').catch(() => ''));
  if (!pointer) return undefined;
  const gitDir = path.resolve(directory, pointer[1]);
  return { root: directory, gitDir, commonDir: await commonDirOf(gitDir) };
}

/** Every directory below the folder that holds one of `files`, at any depth ('' not included). */
function directoriesOf(files: readonly string[]): string[] {
  const directories = new Set<string>();
  for (const file of files) {
    for (let slash = file.indexOf('/'); slash !== -1; slash = file.indexOf('/', slash + 1)) directories.add(file.slice(0, slash));
  }
  return [...directories].sort();
}

/**
 * What `[includeIf …]` conditions are checked against: the git directory as written and as
 * resolved (git matches `gitdir:` against both), and the branch HEAD names (a linked worktree has
 * a HEAD of its own; none when detached).
 */
async function repositoryFacts(repository: Repository | undefined): Promise<Pick<IncludeContext, 'gitDirs' | 'branch'>> {
  if (!repository) return { gitDirs: [] };
  const { gitDir } = repository;
  const head = await fs.readFile(path.join(gitDir, 'HEAD'), 'utf8').catch(() => '');
  return { gitDirs: [gitDir, await fs.realpath(gitDir).catch(() => gitDir)], branch: /^ref: refs\/heads\/(.+?)\s*$/.exec(head)?.[1] };
}

async function commonDirOf(gitDir: string): Promise<string> {
  const common = await fs.readFile(path.join(gitDir, 'commondir'), 'utf8').catch(() => undefined);
  return common?.trim() ? path.resolve(gitDir, common.trim()) : gitDir;
}

/** Git's configuration files, lowest precedence first: system, global (XDG, then `~/.gitconfig`), the repository's. */
function configFiles({ home, variables }: GitEnvironment, commonDir: string | undefined): string[] {
  const files: string[] = [];
  if (!variables.GIT_CONFIG_NOSYSTEM && process.platform !== 'win32') files.push('/etc/gitconfig');
  if (variables.GIT_CONFIG_GLOBAL) files.push(variables.GIT_CONFIG_GLOBAL);
  else files.push(path.join(xdgConfigHome(home, variables), 'git', 'config'), path.join(home, '.gitconfig'));
  if (commonDir) files.push(path.join(commonDir, 'config'));
  return files;
}

function defaultExcludesFile({ home, variables }: GitEnvironment): string {
  return path.join(xdgConfigHome(home, variables), 'git', 'ignore');
}

function xdgConfigHome(home: string, variables: GitEnvironment['variables']): string {
  return variables.XDG_CONFIG_HOME || path.join(home, '.config');
}

/** `~/x` is in the home directory; a relative path is taken from `base`. */
function expandPath(value: string, home: string, base: string): string {
  if (value === '~' || value.startsWith('~/')) return path.join(home, value.slice(1));
  return path.resolve(base, value);
}
