import type { ExclusionReason } from '../search/files/ignoreRules';
import { holdsPrivateKey, maskTokens } from '../workspace/secretShapes';
import type { PathRefusalReason } from '../workspace/workspaceFiles';
import type { DiffFile } from './unifiedDiff';

/**
 * Which files of a change may have their content sent to the service, the one judgement both the
 * commit message and the review use: the workspace's rules for a path (the workspace port: secret
 * files by name, the built-in deny list, `.gitignore`, links, outside the workspace), plus a file
 * any of whose sent lines (added, removed or context) is a private key's, whatever its name, and a
 * binary file. A withheld file is still named, with its statistics: the model knows it changed,
 * never what it holds. In the files sent, token shapes are masked.
 */

/**
 * - `secret`: looks like it holds secrets (`.env`, keys, credentials) or adds a private key;
 * - `ignored`: `.gitignore` excludes it (it was added with `--force`);
 * - `generated`: dependencies, lock files, build output, minified code: noise to the reader;
 * - `outside`: outside the workspace's folders, or reached through a symbolic link;
 * - `binary`: git shows no lines of it.
 */
export type WithheldReason = 'secret' | 'ignored' | 'generated' | 'outside' | 'binary';

export interface ChangedFile extends DiffFile {
  /** Why the file's content is not sent; undefined when it may be. */
  withheld?: WithheldReason;
  /** How many tokens (`ghp_…`, `AKIA…`, `password = …`, see secretShapes.ts) its lines had masked. */
  masked?: number;
}

/** Why the rules for a path (relative to the repository's root) keep its content back; undefined when they do not. */
export type PathJudge = (path: string) => Promise<Exclude<WithheldReason, 'binary'> | undefined>;

/** The workspace port's refusal of a path, as a reason to withhold a file's content. */
export function withheldFor(refusal: PathRefusalReason): Exclude<WithheldReason, 'binary'> {
  return WITHHELD_FOR[refusal];
}

const WITHHELD_FOR: Record<PathRefusalReason | ExclusionReason, Exclude<WithheldReason, 'binary'>> = {
  secret: 'secret',
  gitignore: 'ignored',
  builtIn: 'generated',
  outside: 'outside',
  link: 'outside',
  noFolder: 'outside',
  badName: 'outside',
};

/** What a folder's rules say: FolderExclusions (search/files/fileExclusion.ts) for a repository's root, where no workspace port is at hand. */
export interface PathRules {
  exclusion(path: string): Promise<ExclusionReason | undefined>;
}

/** A judge from a folder's rules alone (tests, the bench). */
export function rulesJudge(rules: PathRules): PathJudge {
  return async (path) => {
    const reason = await rules.exclusion(path);
    return reason && WITHHELD_FOR[reason];
  };
}

/** Each file of the change judged; a renamed file by both its names (a secret moved is still a secret). */
export async function sendableChange(files: readonly DiffFile[], judge: PathJudge): Promise<ChangedFile[]> {
  return Promise.all(
    files.map(async (file): Promise<ChangedFile> => {
      const reasons = await Promise.all([file.path, file.oldPath].filter((path): path is string => !!path).map((path) => judge(path)));
      const reason = reasons.includes('secret') ? 'secret' : reasons.find(Boolean);
      const withheld = reason ?? (holdsKeyMaterial(file) ? 'secret' : file.binary ? 'binary' : undefined);
      return withheld ? { ...file, withheld } : withTokensMasked(file);
    }),
  );
}

/** Any line git would send of the file, deleted and context lines too: deleting a key sends it as much as adding one. */
function holdsKeyMaterial(file: DiffFile): boolean {
  return file.hunks.some((hunk) => holdsPrivateKey(hunk.lines.map((line) => line.slice(1))));
}

function withTokensMasked(file: DiffFile): ChangedFile {
  let masked = 0;
  const hunks = file.hunks.map((hunk) => ({
    ...hunk,
    lines: hunk.lines.map((line) => {
      const shown = maskTokens(line);
      masked += shown.masked;
      return shown.text;
    }),
  }));
  return masked > 0 ? { ...file, hunks, masked } : { ...file };
}
