import { FolderExclusions } from '../search/files/fileExclusion';
import type { ExclusionReason } from '../search/files/ignoreRules';
import type { RepositoryRules } from '../search/files/repositoryRules';
import { LinkFinder, type LinkProbe, type LinkReason } from '../search/files/symbolicLinks';
import { nameProblem, parseGivenPath, relativeSegments, sameName, segmentsBelow } from './givenPath';

/** One workspace folder as the port reaches it (the VS Code layer adapts vscode.WorkspaceFolder; tests pass a fake). */
export interface WorkspaceFolderAccess {
  /** The folder's name (VS Code's WorkspaceFolder.name): in a multi-root workspace paths may start with it. */
  readonly name: string;
  /** Where it is on this machine's disk, for absolute paths the model gives; undefined for a folder on a virtual or remote file system. */
  readonly diskPath?: string;
  /** Names differing only in case are the same file here (Windows, macOS). */
  readonly caseInsensitive: boolean;
  /** A fresh look at its symbolic links (see LinkFinder). */
  linkProbe(): LinkProbe;
  /** A file's bytes (for `.gitignore` files), undefined when absent or unreadable. */
  readFile(path: string): Promise<Uint8Array | undefined>;
  /** The rules git applies from outside the folder, as readRepositoryRules gives them; undefined when none can be known. */
  readRepositoryRules(): Promise<RepositoryRules | undefined>;
}

/** Why a path cannot be used. */
export type PathRefusalReason = 'noFolder' | 'outside' | 'badName' | 'link' | 'secret' | 'builtIn' | 'gitignore';

/** Where a given path leads, or why it may not be used. */
export type PathVerdict<F> =
  | {
      ok: true;
      folder: F;
      /** Relative to the folder, `/`-separated, with the real case of the parts that exist. */
      path: string;
      /** As the user and the model read it: `path`, prefixed by the folder's name when there are several folders. */
      label: string;
      /** Whether a file is there (false: it would be created). */
      exists: boolean;
    }
  | {
      ok: false;
      reason: PathRefusalReason;
      /** English, said to the model so it can try another way; never reveals where a link leads. */
      message: string;
    };

export interface WorkspaceFilesOptions {
  /** The user's home directory, for paths starting with `~`. */
  home?: string;
}

/**
 * The workspace's files as an agent's tools may reach them, by a path a model gave: the model is
 * not trusted (a prompt injection writes whatever reaches a secret), so a path must lie inside a
 * folder, name its file plainly, have no symbolic link on its way, and pass the rules semantic
 * search sends files by, judged on the file's real name. Make one per tool call: what it learns of
 * the folders (listings, rules) is kept for its lifetime, and the workspace may change between calls.
 */
export class WorkspaceFiles<F extends WorkspaceFolderAccess> {
  private readonly looks = new Map<F, FolderLook>();

  constructor(
    private readonly folders: readonly F[],
    private readonly options: WorkspaceFilesOptions = {},
  ) {}

  /**
   * A path as a model gives it: relative to the workspace (or starting with a folder's name in a
   * multi-root workspace), absolute on disk, `~/…`, a `file:///…` URI, with `./` or backslashes.
   */
  async resolve(given: string): Promise<PathVerdict<F>> {
    if (this.folders.length === 0) return refusal('noFolder', 'No folder is open in VS Code: ask the user to open the project first.');
    if (typeof given !== 'string' || given.trim() === '') return refusal('badName', 'Give the path of a file in the workspace, e.g. src/index.ts.');
    const located = this.locate(given);
    return 'reason' in located ? located : this.check(located.folder, located.segments, shown(given));
  }

  /** A path already known to lie in `folder` (from the index or a file search), by the same checks. */
  async judge(folder: F, relativePath: string): Promise<PathVerdict<F>> {
    const segments = relativeSegments(relativePath);
    if (!segments) return refusal('outside', `${shown(relativePath)} climbs out of its folder with "..": give a path inside the workspace.`);
    return this.check(folder, segments, shown(relativePath));
  }

  /** The folder the path lies in and its segments there. */
  private locate(given: string): { folder: F; segments: string[] } | Extract<PathVerdict<F>, { ok: false }> {
    const parsed = parseGivenPath(given, this.options.home);
    if (parsed.kind === 'outside')
      return refusal('outside', `${shown(given)} is not in the workspace (${parsed.why}): give a path relative to the workspace, e.g. src/index.ts.`);
    if (parsed.kind === 'absolute') {
      // The innermost folder wins when one folder lies inside another, as the user would expect.
      let best: { folder: F; segments: string[] } | undefined;
      for (const folder of this.folders) {
        const segments = folder.diskPath === undefined ? undefined : segmentsBelow(parsed.diskPath, folder.diskPath, folder.caseInsensitive);
        if (segments && (!best || segments.length < best.segments.length)) best = { folder, segments };
      }
      return (
        best ??
        refusal('outside', `${shown(given)} is not inside the workspace's folders: give a path inside them, relative to the workspace, e.g. src/index.ts.`)
      );
    }
    const [first, ...rest] = parsed.segments;
    // In a multi-root workspace a path may start with a folder's name; otherwise it is in the first folder.
    const named = this.folders.length > 1 && rest.length > 0 ? this.folders.find((folder) => sameName(folder.name, first, false)) : undefined;
    return named ? { folder: named, segments: rest } : { folder: this.folders[0], segments: parsed.segments };
  }

  /** The checks after locating, in order: plain names, real names, links, the exclusion rules, a file rather than a folder. */
  private async check(folder: F, segments: string[], given: string): Promise<PathVerdict<F>> {
    if (segments.length === 0) return refusal('badName', `${given} is the workspace folder itself: give the path of a file inside it.`);
    for (const segment of segments) {
      const problem = nameProblem(segment);
      if (problem) return refusal('badName', `${given} cannot be used: "${shown(segment)}" is not a plain file name (${problem}). Give the file's exact name.`);
    }
    const look = this.lookAt(folder);
    const real = await realNames(look.probe, segments, folder.caseInsensitive);
    const path = real.segments.join('/');
    const label = this.labelOf(folder, path);
    const link = await look.links.firstLink(path);
    if (link) return refusal('link', linkMessage(label, link.link === path ? undefined : this.labelOf(folder, link.link)));
    const excluded = await (look.exclusions ??= readExclusions(folder)).then((exclusions) => exclusions.exclusion(path));
    if (excluded) return refusal(excluded, EXCLUSION_MESSAGES[excluded](label));
    if (!real.allExist) return { ok: true, folder, path, label, exists: false };
    // Only a directory can be listed.
    if ((await look.probe.entries(path)) !== undefined) return refusal('badName', `${label} is a folder, not a file: give the path of a file in it.`);
    return { ok: true, folder, path, label, exists: true };
  }

  private lookAt(folder: F): FolderLook {
    let look = this.looks.get(folder);
    if (!look) {
      const probe = listingOnce(folder.linkProbe());
      this.looks.set(folder, (look = { probe, links: new LinkFinder(probe) }));
    }
    return look;
  }

  private labelOf(folder: F, path: string): string {
    return this.folders.length > 1 ? `${folder.name}/${path}` : path;
  }
}

/** What one WorkspaceFiles has learnt of a folder: its listings, its links, its rules (read once, also for concurrent calls). */
interface FolderLook {
  probe: LinkProbe;
  links: LinkFinder;
  exclusions?: Promise<FolderExclusions>;
}

/**
 * The path with each existing part named as its directory lists it: on a file system that ignores
 * case, `.ENV` is `.env` and `.GIT` is `.git`, and the rules and links must be judged on those names.
 * Where a part is missing, the rest is new (a file to be created) and kept as given. The walk stops
 * at a symbolic link: what lies below one is never listed, and the path is refused anyway.
 */
async function realNames(probe: LinkProbe, given: readonly string[], caseInsensitive: boolean): Promise<{ segments: string[]; allExist: boolean }> {
  const segments = [...given];
  for (let index = 0; index < segments.length; index++) {
    const listing = await probe.entries(segments.slice(0, index).join('/'));
    const name = listing && listedName(listing, segments[index], caseInsensitive);
    if (name === undefined) return { segments, allExist: false };
    segments[index] = name;
    if (listing?.get(name)) return { segments, allExist: false };
  }
  return { segments, allExist: true };
}

/** The listed name `name` stands for: itself when listed, else one equal to it (see sameName). */
function listedName(listing: ReadonlyMap<string, boolean>, name: string, caseInsensitive: boolean): string | undefined {
  if (listing.has(name)) return name;
  return [...listing.keys()].find((listed) => sameName(listed, name, caseInsensitive));
}

/**
 * The probe with each directory listed once (LinkFinder and realNames ask for the same ones), and
 * its failures taken for their safe meaning: an unlistable directory, no link seen, a link that
 * leads nowhere known (refused like any other).
 */
function listingOnce(probe: LinkProbe): LinkProbe {
  const listings = new Map<string, Promise<ReadonlyMap<string, boolean> | undefined>>();
  return {
    entries(directory) {
      let listing = listings.get(directory);
      if (!listing) listings.set(directory, (listing = probe.entries(directory).catch(() => undefined)));
      return listing;
    },
    isLink: (path) => probe.isLink(path).catch(() => false),
    follow: (path) => probe.follow(path).catch((): LinkReason => 'linkUnresolved'),
  };
}

async function readExclusions(folder: WorkspaceFolderAccess): Promise<FolderExclusions> {
  // Rules that cannot be read are unknown, not an error: the folder's own .gitignore files and the deny lists still apply.
  const outside = await folder.readRepositoryRules().catch(() => undefined);
  return FolderExclusions.withRules(outside, (path) => folder.readFile(path));
}

function refusal(reason: PathRefusalReason, message: string): Extract<PathVerdict<never>, { ok: false }> {
  return { ok: false, reason, message };
}

/** Where the link leads is left out on purpose: saying it would hand over what the link was made to reach. */
function linkMessage(label: string, linkLabel: string | undefined): string {
  const where = linkLabel === undefined ? `${label} is a symbolic link` : `${label} lies below the symbolic link ${linkLabel}`;
  return `${where}: links are never followed, since they can lead to secrets under an innocent name. Use the file's own path.`;
}

const EXCLUSION_MESSAGES: Record<ExclusionReason, (label: string) => string> = {
  secret: (label) =>
    `${label} is a secret file (keys, credentials, .env and the like): it is never read or changed for the model. Do without it, or ask the user for what you need.`,
  builtIn: (label) =>
    `${label} is version control, dependencies, build output or a binary, which are never read or changed for the model. Work with the project's own source files.`,
  gitignore: (label) =>
    `${label} is excluded by .gitignore (or git's excludes), and such files are never read or changed for the model. Work with the files git keeps.`,
};

/** The given path as it may be quoted back: control characters would garble the message. */
function shown(given: string): string {
  return [...given].map((char) => (char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f ? '\uFFFD' : char)).join('');
}
