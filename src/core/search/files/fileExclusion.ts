import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { IgnoreRules, type ExclusionReason } from './ignoreRules';
import { readRepositoryRules, type GitEnvironment } from './repositoryRules';

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
    private readonly folder: string,
    private readonly rules: IgnoreRules,
  ) {}

  static async open(folder: string, environment: GitEnvironment): Promise<FolderExclusions> {
    const outside = await readRepositoryRules(folder, environment);
    const rules = new IgnoreRules(outside.folderPath);
    for (const { directory, content } of outside.sources) rules.addRules(directory, content);
    return new FolderExclusions(folder, rules);
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
    const content = await fs.readFile(path.join(this.folder, gitignore), 'utf8').catch(() => undefined);
    if (content !== undefined) this.rules.addGitignore(gitignore, content);
  }
}
