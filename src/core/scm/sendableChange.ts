import type { ExclusionReason } from '../search/files/ignoreRules';
import type { DiffFile } from './unifiedDiff';

/**
 * Which files of a change may have their content sent to the service: the same rules as semantic
 * search (secret files by name, the built-in deny list, `.gitignore` and what git applies from
 * outside the folder), plus a file whose change adds a private key, whatever its name. A withheld
 * file is still named, with its statistics: the model knows it changed, never what it holds.
 */

/**
 * - `secret`: looks like it holds secrets (`.env`, keys, credentials) or adds a private key;
 * - `ignored`: `.gitignore` excludes it (it was added with `--force`);
 * - `generated`: dependencies, lock files, build output, minified code: noise to the reader;
 * - `binary`: git shows no lines of it.
 */
export type WithheldReason = 'secret' | 'ignored' | 'generated' | 'binary';

export interface ChangedFile extends DiffFile {
  /** Why the file's content is not sent; undefined when it may be. */
  withheld?: WithheldReason;
}

/** What a path's rules say: FolderExclusions (search/files/fileExclusion.ts) for the repository's root. */
export interface PathRules {
  exclusion(path: string): Promise<ExclusionReason | undefined>;
}

const PRIVATE_KEY = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----/;

const WITHHELD_FOR: Record<ExclusionReason, WithheldReason> = { secret: 'secret', gitignore: 'ignored', builtIn: 'generated' };

/** Each file of the change judged; a renamed file by both its names (a secret moved is still a secret). */
export async function sendableChange(files: readonly DiffFile[], rules: PathRules): Promise<ChangedFile[]> {
  return Promise.all(
    files.map(async (file): Promise<ChangedFile> => {
      const reasons = await Promise.all([file.path, file.oldPath].filter((path): path is string => !!path).map((path) => rules.exclusion(path)));
      const reason = reasons.includes('secret') ? 'secret' : reasons.find(Boolean);
      const withheld = reason ? WITHHELD_FOR[reason] : addsPrivateKey(file) ? 'secret' : file.binary ? 'binary' : undefined;
      return withheld ? { ...file, withheld } : { ...file };
    }),
  );
}

function addsPrivateKey(file: DiffFile): boolean {
  return file.hunks.some((hunk) => hunk.lines.some((line) => line.startsWith('+') && PRIVATE_KEY.test(line)));
}
