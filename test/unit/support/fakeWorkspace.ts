import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import {
  diskLinkProbe,
  readRepositoryRules,
  type GitEnvironment,
  type LinkProbe,
  type LinkReason,
  type RepositoryRules,
  type WorkspaceFolderAccess,
} from '../../../src/core';

/**
 * Workspace folders for WorkspaceFiles' tests, described once and built either in memory (a fake
 * that can be case-insensitive, Windows-placed or virtual on any machine) or on this machine's disk
 * with real symbolic links, so that the fake can be checked against the real thing.
 */

/** One entry of a described folder: a file's text, a symbolic link, or an empty directory. */
export type TreeEntry = string | { link: string } | { directory: true };

/** A symbolic link to `target`, written as `ln -s` takes it: relative to the link's directory, or absolute. */
export const link = (target: string): TreeEntry => ({ link: target });

/** An empty directory (others are made as their files need them). */
export const directory: TreeEntry = { directory: true };

/** A folder described: its entries by relative path, and the rules git applies from outside it. */
export interface FolderSpec {
  name?: string;
  files: Record<string, TreeEntry>;
  /** What the repository's `info/exclude` says (on disk, written to `.git/info/exclude`). */
  excludes?: string;
}

export interface FakeFolderOptions {
  /** Where the folder pretends to be on disk; none for a virtual folder. */
  diskPath?: string;
  caseInsensitive?: boolean;
}

/**
 * A folder in memory. Its probe keeps LinkProbe's promise strictly: listing a directory with a
 * symbolic link on its way throws, since a real disk would list what the link leads to.
 */
export class FakeFolder implements WorkspaceFolderAccess {
  readonly name: string;
  readonly diskPath?: string;
  readonly caseInsensitive: boolean;
  /** How often each question was asked, to see that rules are read once. */
  readonly calls = { readRepositoryRules: 0, readFile: new Map<string, number>() };
  /**
   * The probe's questions that had a symbolic link on their way, which LinkProbe forbids (a real
   * disk would answer about what the link leads to). Kept as well as thrown: the caller may take
   * the error for an unreadable directory.
   */
  readonly askedThroughLinks: string[] = [];
  private readonly entries: ReadonlyMap<string, TreeEntry>;

  constructor(
    private readonly spec: FolderSpec,
    options: FakeFolderOptions = {},
  ) {
    this.name = spec.name ?? 'proj';
    this.diskPath = options.diskPath;
    this.caseInsensitive = options.caseInsensitive ?? false;
    this.entries = new Map(Object.entries(spec.files));
  }

  linkProbe(): LinkProbe {
    return {
      entries: async (directory) => {
        this.refuseLinkOnWay(directory, true);
        if (directory !== '' && this.kind(directory) !== 'directory') return undefined;
        const depth = directory === '' ? 0 : directory.split('/').length;
        const listing = new Map<string, boolean>();
        for (const key of this.entries.keys()) {
          const segments = key.split('/');
          if (segments.length <= depth || !this.same(segments.slice(0, depth).join('/'), directory)) continue;
          const child = segments.slice(0, depth + 1).join('/');
          listing.set(segments[depth], this.kind(child) === 'link');
        }
        return listing;
      },
      isLink: async (relative) => {
        this.refuseLinkOnWay(relative, false);
        return this.kind(relative) === 'link';
      },
      follow: async (relative) => this.follow(relative),
    };
  }

  async readFile(relative: string): Promise<Uint8Array | undefined> {
    this.calls.readFile.set(relative, (this.calls.readFile.get(relative) ?? 0) + 1);
    const entry = this.entryAt(relative);
    return typeof entry === 'string' ? new TextEncoder().encode(entry) : undefined;
  }

  async readRepositoryRules(): Promise<RepositoryRules | undefined> {
    this.calls.readRepositoryRules++;
    const { excludes } = this.spec;
    return excludes === undefined ? undefined : { folderPath: '', sources: [{ directory: '', content: excludes }], consulted: [] };
  }

  /** What is at `relative` (no link followed): a file, a link, a directory (listed or implied by what lies below), or nothing. */
  private kind(relative: string): 'file' | 'link' | 'directory' | undefined {
    const entry = this.entryAt(relative);
    if (typeof entry === 'string') return 'file';
    if (entry && 'link' in entry) return 'link';
    if (entry) return 'directory';
    const below = [...this.entries.keys()].some((key) => {
      const segments = key.split('/');
      const depth = relative.split('/').length;
      return segments.length > depth && this.same(segments.slice(0, depth).join('/'), relative);
    });
    return below ? 'directory' : undefined;
  }

  private entryAt(relative: string): TreeEntry | undefined {
    const key = [...this.entries.keys()].find((candidate) => this.same(candidate, relative));
    return key === undefined ? undefined : this.entries.get(key);
  }

  /** Names are compared as this folder's file system would: composed Unicode, and case folded when it ignores case. */
  private same(a: string, b: string): boolean {
    const [x, y] = [a.normalize('NFC'), b.normalize('NFC')];
    return x === y || (this.caseInsensitive && x.toLowerCase() === y.toLowerCase());
  }

  private refuseLinkOnWay(relative: string, includingItself: boolean): void {
    const segments = relative === '' ? [] : relative.split('/');
    const last = includingItself ? segments.length : segments.length - 1;
    for (let depth = 1; depth <= last; depth++) {
      if (this.kind(segments.slice(0, depth).join('/')) === 'link') {
        this.askedThroughLinks.push(relative);
        throw new Error(`the probe was asked through a symbolic link: ${relative}`);
      }
    }
  }

  /** Where a link leads, as realpath would find it; a virtual folder cannot say. */
  private follow(relative: string): LinkReason {
    if (this.diskPath === undefined) return 'linkUnresolved';
    const real = this.realPath(relative, 0);
    return typeof real === 'object' ? 'linkWithin' : real;
  }

  /** The path with every link on it followed, relative to the folder; a failure once a link leaves it or leads nowhere. */
  private realPath(relative: string, depth: number): { path: string } | 'linkOutside' | 'linkBroken' {
    if (depth > 40) return 'linkBroken'; // a loop of links, as ELOOP
    let at = '';
    for (const segment of relative.split('/')) {
      const next = at === '' ? segment : `${at}/${segment}`;
      const entry = this.entryAt(next);
      if (entry && typeof entry !== 'string' && 'link' in entry) {
        const target = this.targetOf(at, entry.link);
        if (target === undefined) return 'linkOutside';
        const followed = target === '' ? { path: '' } : this.realPath(target, depth + 1);
        if (typeof followed !== 'object') return followed;
        at = followed.path;
      } else if (this.kind(next) === undefined) return 'linkBroken';
      else at = next;
    }
    return { path: at };
  }

  /** A link's target relative to the folder, or undefined when it lies outside. */
  private targetOf(directory: string, target: string): string | undefined {
    const joined = target.startsWith('/') ? path.posix.relative(this.diskPath ?? '/', target) : path.posix.normalize(path.posix.join(directory, target));
    const relative = joined === '.' ? '' : joined;
    return relative === '..' || relative.startsWith('../') || path.posix.isAbsolute(relative) ? undefined : relative;
  }
}

/** No git configuration at all: the tester's own excludes file must not change a result. */
const NO_GIT_CONFIG: GitEnvironment = { home: '/nonexistent-home', variables: { GIT_CONFIG_NOSYSTEM: '1' } };

/**
 * The described folder written to `root` on this machine's disk, with real symbolic links, and
 * reached as the VS Code layer reaches a folder on disk (diskLinkProbe, readRepositoryRules).
 */
export async function writeDiskFolder(root: string, spec: FolderSpec): Promise<WorkspaceFolderAccess> {
  for (const [relative, entry] of Object.entries(spec.files)) {
    const full = path.join(root, ...relative.split('/'));
    await fs.mkdir(path.dirname(full), { recursive: true });
    if (typeof entry === 'string') await fs.writeFile(full, entry);
    else if ('link' in entry) await fs.symlink(entry.link, full);
    else await fs.mkdir(full, { recursive: true });
  }
  if (spec.excludes !== undefined) {
    await fs.mkdir(path.join(root, '.git', 'info'), { recursive: true });
    await fs.writeFile(path.join(root, '.git', 'info', 'exclude'), spec.excludes);
  }
  // Whether this disk ignores case is found out, not assumed: the same tests run on Linux, macOS and Windows.
  const probeFile = path.join(root, 'CASE-PROBE');
  await fs.writeFile(probeFile, '');
  const caseInsensitive = await fs.stat(path.join(root, 'case-probe')).then(
    () => true,
    () => false,
  );
  await fs.rm(probeFile);
  return {
    name: spec.name ?? path.basename(root),
    diskPath: root,
    caseInsensitive,
    linkProbe: () => diskLinkProbe(root),
    readFile: (relative) => fs.readFile(path.join(root, ...relative.split('/'))).catch(() => undefined),
    readRepositoryRules: () => readRepositoryRules(root, NO_GIT_CONFIG),
  };
}
