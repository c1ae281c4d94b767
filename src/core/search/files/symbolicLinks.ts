import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/**
 * Why a path with a symbolic link on its way is not indexed. Such a path is never read: a link
 * out of the folder would send what it points to (a `~/.ssh` key, a token file) under an innocent
 * name, and a link within it would send the same file twice.
 */
export type LinkReason =
  /** It leads out of the workspace folder. */
  | 'linkOutside'
  /** It leads nowhere: dangling, or a loop of links. */
  | 'linkBroken'
  /** It leads to a file of the folder, which is indexed under its own path if the rules let it. */
  | 'linkWithin'
  /** Where it leads cannot be known on this file system (a virtual one): refused. */
  | 'linkUnresolved';

/** The first symbolic link on a path's way (relative to the folder, `/`-separated) and where it leads. */
export interface LinkOnPath {
  link: string;
  reason: LinkReason;
}

/** What LinkFinder asks of a folder's file system. Paths are relative to the folder, `/`-separated. */
export interface LinkProbe {
  /**
   * The entries of `directory` ('' for the folder itself; no link on its way), each with whether
   * it is a symbolic link; undefined when it cannot be listed.
   */
  entries(directory: string): Promise<ReadonlyMap<string, boolean> | undefined>;
  /** Whether `path` is a symbolic link, for an entry its directory's listing lacks. */
  isLink(path: string): Promise<boolean>;
  /** Where the symbolic link `path` (no other link on its way) leads. */
  follow(path: string): Promise<LinkReason>;
}

/**
 * Finds the symbolic links on the way to a folder's files. Each directory is listed once and its
 * verdict remembered, so a scan of thousands of files costs one listing per directory, and a link
 * to a large folder (a home directory) is judged once for everything below it. The memory never
 * expires: use one finder per scan, or per single-file check.
 */
export class LinkFinder {
  private readonly directories = new Map<string, Promise<LinkOnPath | undefined>>();
  private readonly listings = new Map<string, Promise<ReadonlyMap<string, boolean> | undefined>>();

  constructor(private readonly probe: LinkProbe) {}

  /** The first link on the way to `relative` (a file or folder), or undefined when there is none: the path is where the file really is. */
  async firstLink(relative: string): Promise<LinkOnPath | undefined> {
    const slash = relative.lastIndexOf('/');
    const directory = slash === -1 ? '' : relative.slice(0, slash);
    return (await this.directoryLink(directory)) ?? (await this.entryLink(directory, relative.slice(slash + 1), relative));
  }

  private directoryLink(directory: string): Promise<LinkOnPath | undefined> {
    if (directory === '') return Promise.resolve(undefined);
    let found = this.directories.get(directory);
    if (!found) this.directories.set(directory, (found = this.firstLink(directory)));
    return found;
  }

  private async entryLink(directory: string, name: string, relative: string): Promise<LinkOnPath | undefined> {
    let listing = this.listings.get(directory);
    if (!listing) this.listings.set(directory, (listing = this.probe.entries(directory)));
    const isLink = (await listing)?.get(name) ?? (await this.probe.isLink(relative));
    return isLink ? { link: relative, reason: await this.probe.follow(relative) } : undefined;
  }
}

/**
 * A folder on this machine's disk. A link is followed with `realpath` (every link of a chain) and
 * judged against the folder's own real path, so a folder opened through a link
 * (`/home/u/proj` → `/data/proj`) keeps its files.
 */
export function diskLinkProbe(root: string): LinkProbe {
  const full = (relative: string) => path.join(root, ...relative.split('/'));
  let realRoot: Promise<string | undefined> | undefined;
  return {
    async entries(directory) {
      const entries = await fs.readdir(full(directory), { withFileTypes: true }).catch(() => undefined);
      return entries && new Map(entries.map((entry) => [entry.name, entry.isSymbolicLink()]));
    },
    isLink: (relative) =>
      fs.lstat(full(relative)).then(
        (stat) => stat.isSymbolicLink(),
        () => false,
      ),
    async follow(link) {
      realRoot ??= fs.realpath(root).catch(() => undefined);
      const [base, target] = await Promise.all([realRoot, fs.realpath(full(link)).catch(() => undefined)]);
      if (base === undefined || target === undefined) return 'linkBroken';
      const relative = path.relative(base, target);
      const outside = relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
      return outside ? 'linkOutside' : 'linkWithin';
    },
  };
}
