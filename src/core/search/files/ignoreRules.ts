import ignore, { type Ignore } from 'ignore';
import { BUILT_IN_PATTERNS, SECRET_PATTERNS } from './denyLists';

/** Where git keeps a repository's own ignore rules (not committed), relative to its root. */
export const ROOT_EXCLUDES_PATH = '.git/info/exclude';

/** Why a file is not indexed. */
export type ExclusionReason = 'secret' | 'builtIn' | 'gitignore';

/**
 * The ignore rules of one workspace folder: the built-in and secret deny lists, plus every
 * `.gitignore` found in it and the rules git applies from outside it (see readRepositoryRules),
 * with git's precedence: a `.gitignore` applies to the paths below its own directory, a deeper one
 * overrides a shallower one (so `!keep.log` in `src/.gitignore` re-includes what the root's `*.log`
 * excluded), and nothing re-includes a file whose parent directory is excluded. Paths are relative
 * to the folder, with `/` separators.
 */
export class IgnoreRules {
  private static readonly secrets = ignore().add([...SECRET_PATTERNS]);
  private static readonly builtIn = ignore().add([...BUILT_IN_PATTERNS]);
  /** Directory relative to the repository root ('' for the root) → the rules that apply below it. */
  private readonly levels = new Map<string, Ignore>();

  /** @param folderPath the folder relative to its repository's root, where git's rules are anchored ('' when it is the root). */
  constructor(private readonly folderPath = '') {}

  /** Adds the content of the folder's `.gitignore` at `gitignorePath` (e.g. `src/.gitignore`). */
  addGitignore(gitignorePath: string, content: string): void {
    this.addRules(joinPath(this.folderPath, parentOf(gitignorePath)), content);
  }

  /** Adds rules that apply below `directory`, relative to the repository root; among one directory's, the last added win. */
  addRules(directory: string, content: string): void {
    const rules = this.levels.get(directory) ?? ignore();
    rules.add(content);
    this.levels.set(directory, rules);
  }

  /** Whether `path` is a `.gitignore`, whose rules this must be given before any `excludes` call. */
  static isIgnoreFile(path: string): boolean {
    return path === '.gitignore' || path.endsWith('/.gitignore');
  }

  /** Whether a change to `path` can change which files are excluded: a `.gitignore` or `.git/info/exclude`. */
  static holdsRules(path: string): boolean {
    return IgnoreRules.isIgnoreFile(path) || path === ROOT_EXCLUDES_PATH;
  }

  /** Secret files are refused by name alone, whatever else is configured. */
  static isSecret(path: string): boolean {
    return IgnoreRules.valid(path) && IgnoreRules.secrets.ignores(path);
  }

  /** The reason `path` must not be indexed, or undefined when it may be. */
  excludes(path: string): ExclusionReason | undefined {
    if (!IgnoreRules.valid(path)) return 'builtIn';
    if (IgnoreRules.secrets.ignores(path)) return 'secret';
    if (IgnoreRules.builtIn.ignores(path)) return 'builtIn';
    return this.gitignored(joinPath(this.folderPath, path)) ? 'gitignore' : undefined;
  }

  /** Whether `path` (relative to the repository root) is ignored by git's rules. */
  private gitignored(path: string): boolean {
    const segments = path.split('/');
    // Directories first, from the top: an excluded directory hides everything below it.
    for (let depth = 1; depth < segments.length; depth++) {
      if (this.decides(segments.slice(0, depth).join('/') + '/', depth)) return true;
    }
    return this.decides(path, segments.length);
  }

  /**
   * Whether the levels at or above `depth` exclude `target`: every `.gitignore` from the folder down
   * to the target's directory is consulted, the deepest one that has an opinion wins.
   */
  private decides(target: string, depth: number): boolean {
    const segments = target.replace(/\/$/, '').split('/');
    let ignored = false;
    for (let level = 0; level < depth; level++) {
      const directory = segments.slice(0, level).join('/');
      const rules = this.levels.get(directory);
      if (!rules) continue;
      const relative = directory ? target.slice(directory.length + 1) : target;
      const result = rules.test(relative);
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
    return ignored;
  }

  /** `ignore` throws on paths it cannot interpret (absolute, `..`): never index those. */
  private static valid(path: string): boolean {
    return path.length > 0 && ignore.isPathValid(path);
  }
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

function joinPath(directory: string, path: string): string {
  return directory && path ? `${directory}/${path}` : directory || path;
}
