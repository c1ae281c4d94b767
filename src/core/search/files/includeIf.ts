import * as path from 'node:path';

/** What an `[includeIf "…"]` condition is checked against. */
export interface IncludeContext {
  /** The repository's git directory (`repo/.git`, or a linked worktree's own), with its real path; none outside a repository. */
  gitDirs: readonly string[];
  /** The branch checked out (`main`, `release/2.0`); none when HEAD is detached or outside a repository. */
  branch?: string;
  /** The directory of the configuration file the condition is in (`./` patterns start there). */
  configDir: string;
  home: string;
}

/**
 * Whether git would follow an `[includeIf "<condition>"]`: `gitdir:` and `gitdir/i:` (a glob on the
 * git directory, case-insensitive with `/i`) and `onbranch:` (a glob on the branch checked out) are
 * evaluated as git does. The condition on the remotes (`hasconfig:`) is not, and counts as not met:
 * the files it includes are not read.
 */
export function includeConditionHolds(condition: string, context: IncludeContext): boolean {
  const onbranch = /^onbranch:(.+)$/s.exec(condition);
  if (onbranch) return context.branch !== undefined && globToRegExp(belowDirectory(onbranch[1]), false).test(context.branch);
  const gitdir = /^gitdir(\/i)?:(.+)$/s.exec(condition);
  if (!gitdir || context.gitDirs.length === 0) return false;
  const pattern = globToRegExp(gitdirPattern(gitdir[2], context), gitdir[1] !== undefined);
  return context.gitDirs.some((dir) => pattern.test(slashes(dir)));
}

/**
 * The gitdir pattern as git completes it: `~/` is the home directory, `./` the configuration file's
 * directory; a pattern not starting with `/` matches at any depth (`**\/` before it), and one
 * ending with `/` matches everything below.
 */
function gitdirPattern(written: string, { configDir, home }: IncludeContext): string {
  let pattern = written;
  if (pattern.startsWith('~/')) pattern = slashes(home) + pattern.slice(1);
  else if (pattern.startsWith('./')) pattern = slashes(configDir) + pattern.slice(1);
  if (!pattern.startsWith('/') && !/^[A-Za-z]:\//.test(pattern)) pattern = `**/${pattern}`;
  return belowDirectory(pattern);
}

/** A pattern ending with `/` matches everything below (`**` after it), in both kinds of condition. */
function belowDirectory(pattern: string): string {
  return pattern.endsWith('/') ? `${pattern}**` : pattern;
}

/** Git's wildmatch with paths: `*` and `?` stay within a directory, `**` crosses them, `[…]` is a class. */
function globToRegExp(glob: string, ignoreCase: boolean): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i];
    if (glob.startsWith('**/', i)) {
      source += '(?:.*/)?';
      i += 2;
    } else if (glob.startsWith('**', i)) {
      source += '.*';
      i += 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else if (char === '[' && glob.indexOf(']', i + 2) !== -1) {
      const end = glob.indexOf(']', i + 2);
      const body = glob.slice(i + 1, end);
      source += `[${body.startsWith('!') ? `^${escapeClass(body.slice(1))}` : escapeClass(body)}]`;
      i = end;
    } else if (char === '\\' && i + 1 < glob.length) source += escapeChar(glob[++i]);
    else source += escapeChar(char);
  }
  return new RegExp(`^${source}$`, ignoreCase ? 'i' : '');
}

function escapeChar(char: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(char) ? `\\${char}` : char;
}

function escapeClass(body: string): string {
  return body.replace(/[\\\]^]/g, (char) => `\\${char}`);
}

function slashes(file: string): string {
  return file.split(path.sep).join('/');
}
