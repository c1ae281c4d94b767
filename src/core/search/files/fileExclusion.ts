import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { IgnoreRules, type ExclusionReason } from './ignoreRules';
import { readRepositoryRules, type GitEnvironment, type RepositoryRules } from './repositoryRules';

/** Reads a file of the folder by its relative, `/`-separated path; undefined when absent or unreadable. */
export type FolderFileReader = (relativePath: string) => Promise<Uint8Array | undefined>;

/**
 * Why files of a folder must not be sent to the service, by the same rules as semantic search
 * (secret files, the built-in deny list, every `.gitignore` from the folder down to the file and
 * what git applies from outside the folder), file by file, as an agent's tools reach them: the
 * `.gitignore` files on a file's way are read, not the whole folder listed, and each once however
 * many files are asked about.
 */
export class FolderExclusions {
  /** The folder's directories whose `.gitignore` is read (or found missing), once each, also when asked about at once. */
  private readonly read = new Map<string, Promise<void>>();

  private constructor(
    private readonly readFile: FolderFileReader,
    private readonly rules: IgnoreRules,
  ) {}

  /** The rules of a folder on this machine's disk, its `.gitignore` files read with node's `fs`. */
  static async open(folder: string, environment: GitEnvironment): Promise<FolderExclusions> {
    const readFile: FolderFileReader = (relativePath) => fs.readFile(path.join(folder, ...relativePath.split('/'))).catch(() => undefined);
    return FolderExclusions.withRules(await readRepositoryRules(folder, environment), readFile);
  }

  /**
   * The rules of any folder (on disk, virtual or remote): `outside` is what git applies from
   * outside it (undefined when that cannot be known), and its `.gitignore` files are read with `readFile`.
   */
  static withRules(outside: RepositoryRules | undefined, readFile: FolderFileReader): FolderExclusions {
    const rules = new IgnoreRules(outside?.folderPath);
    for (const { directory, content } of outside?.sources ?? []) rules.addRules(directory, content);
    return new FolderExclusions(readFile, rules);
  }

  /**
   * Why the file must not be sent, or undefined when it may be.
   * @param relativePath relative to the folder, `/`-separated
   */
  async exclusion(relativePath: string): Promise<ExclusionReason | undefined> {
    if (IgnoreRules.isSecret(relativePath)) return 'secret';
    const directories = relativePath.split('/').slice(0, -1);
    for (let depth = 0; depth <= directories.length; depth++) {
      const directory = directories.slice(0, depth).join('/');
      if (!this.read.has(directory)) this.read.set(directory, this.readGitignore(directory));
      await this.read.get(directory);
    }
    return this.rules.excludes(relativePath);
  }

  private async readGitignore(directory: string): Promise<void> {
    const gitignore = directory ? `${directory}/.gitignore` : '.gitignore';
    // A reader that throws counts as a missing file: the other rules still apply.
    const bytes = await this.readFile(gitignore).catch(() => undefined);
    // Decoded leniently: a rule file in another encoding still excludes what its ASCII lines name.
    if (bytes !== undefined) this.rules.addGitignore(gitignore, new TextDecoder().decode(bytes));
  }
}
