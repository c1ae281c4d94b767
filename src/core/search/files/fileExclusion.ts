import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { IgnoreRules, type ExclusionReason } from './ignoreRules';
import { readRepositoryRules, type GitEnvironment } from './repositoryRules';

/**
 * Why one file of a folder must not be sent to the service, by the same rules as semantic search
 * (secret files, the built-in deny list, every `.gitignore` from the folder down to the file and
 * what git applies from outside the folder), or undefined when it may be. For a single file, as an
 * agent's tool reads it: the `.gitignore` files on its way are read, not the whole folder listed.
 *
 * @param relativePath relative to `folder`, `/`-separated
 */
export async function fileExclusion(folder: string, relativePath: string, environment: GitEnvironment): Promise<ExclusionReason | undefined> {
  if (IgnoreRules.isSecret(relativePath)) return 'secret';
  const outside = await readRepositoryRules(folder, environment);
  const rules = new IgnoreRules(outside.folderPath);
  for (const { directory, content } of outside.sources) rules.addRules(directory, content);
  const directories = relativePath.split('/').slice(0, -1);
  for (let depth = 0; depth <= directories.length; depth++) {
    const gitignore = [...directories.slice(0, depth), '.gitignore'].join('/');
    const content = await fs.readFile(path.join(folder, gitignore), 'utf8').catch(() => undefined);
    if (content !== undefined) rules.addGitignore(gitignore, content);
  }
  return rules.excludes(relativePath);
}
