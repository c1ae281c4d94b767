import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { diskLinkProbe, readRepositoryRules, type FolderSource, type GitEnvironment, type LinkProbe, type RepositoryRules } from '../../../src/core';

/** No git configuration at all: what the tester's own excludes file says must not change a result. */
const NO_GIT_CONFIG: GitEnvironment = { home: '/nonexistent-home', variables: { GIT_CONFIG_NOSYSTEM: '1' } };

/**
 * A folder on disk as semantic search's file selection sees it: every file below `root` (what
 * `workspace.findFiles` lists in VS Code, minus editor excludes), read with `fs`. Used by unit tests
 * and benchmarks. Symbolic links are followed as `findFiles` follows them (a link to a folder is
 * walked, unless it leads back to a folder being walked: a loop), and a link that leads nowhere is
 * listed too, as the file watcher would name it.
 */
export class DiskFolder implements FolderSource {
  constructor(
    readonly root: string,
    private readonly git = NO_GIT_CONFIG,
  ) {}

  async listFiles(): Promise<string[]> {
    const found: string[] = [];
    const walk = async (directory: string, walking: readonly string[]): Promise<void> => {
      for (const entry of await fs.readdir(directory, { withFileTypes: true })) {
        const full = path.join(directory, entry.name);
        const isDirectory = entry.isDirectory() || (entry.isSymbolicLink() && (await fs.stat(full).catch(() => undefined))?.isDirectory());
        if (!isDirectory) found.push(path.relative(this.root, full).split(path.sep).join('/'));
        else {
          const real = await fs.realpath(full);
          if (!walking.includes(real)) await walk(full, [...walking, real]);
        }
      }
    };
    await walk(this.root, [await fs.realpath(this.root)]);
    return found;
  }

  async readFile(file: string): Promise<Uint8Array | undefined> {
    return fs.readFile(path.join(this.root, file)).catch(() => undefined);
  }

  async fileSize(file: string): Promise<number | undefined> {
    const stat = await fs.lstat(path.join(this.root, file)).catch(() => undefined);
    return stat?.isFile() ? stat.size : undefined;
  }

  linkProbe(): LinkProbe {
    return diskLinkProbe(this.root);
  }

  readRepositoryRules(listed: readonly string[]): Promise<RepositoryRules> {
    return readRepositoryRules(this.root, this.git, listed);
  }

  keyOf(file: string): string {
    return `disk:${file}`;
  }
}
