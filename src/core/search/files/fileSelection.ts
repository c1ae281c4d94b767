import { forEachYielding } from '../../base/eventLoop';
import type { SourceFile } from '../indexerTypes';
import { keepWithinLimit } from './filePriority';
import { IgnoreRules, type ExclusionReason } from './ignoreRules';
import type { RepositoryRules } from './repositoryRules';
import { decodeSourceText } from './sourceText';
import { LinkFinder, type LinkOnPath, type LinkProbe } from './symbolicLinks';

/**
 * One workspace folder as semantic search sees it. The VS Code layer lists files with
 * `workspace.findFiles` (so `files.exclude` and `search.exclude` are already applied); tests use
 * the file system directly.
 */
export interface FolderSource {
  /**
   * Every candidate file, relative to the folder with `/` separators, `.gitignore` files included;
   * symbolic links may have been followed (`findFiles` follows them): selectFiles leaves out what they bring.
   */
  listFiles(signal?: AbortSignal): Promise<string[]>;
  /** The file's bytes, or undefined when it vanished or cannot be read. */
  readFile(path: string): Promise<Uint8Array | undefined>;
  /**
   * The file's size in bytes, or undefined when it vanished or is not a regular file: a directory,
   * or a symbolic link (one that replaced the file since it was listed must not be read).
   */
  fileSize(path: string): Promise<number | undefined>;
  /** A new look at the folder's symbolic links (see LinkFinder). */
  linkProbe(): LinkProbe;
  /** The index's id of a file (unique across folders), e.g. its URI. */
  keyOf(path: string): string;
  /**
   * The rules git applies to the folder beyond its `.gitignore` files (its repository's, the user's
   * excludes file, the repositories inside it); `listed` is what listFiles returned.
   */
  readRepositoryRules?(listed: readonly string[]): Promise<RepositoryRules | undefined>;
}

export interface SelectionLimits {
  /** Files larger than this are skipped. */
  maxFileBytes: number;
  /** Files beyond this many are left out: which ones, see `filePriority.ts`. */
  maxFiles: number;
}

/** Why a file was left out: an ignore rule, or what its content turned out to be. */
export type SkipReason = ExclusionReason | 'tooLarge' | 'binary' | 'unreadable' | 'overLimit';

export interface SelectedFile<Folder extends FolderSource = FolderSource> {
  folder: Folder;
  /** Relative to the folder. */
  path: string;
  key: string;
}

export interface FileSelection<Folder extends FolderSource = FolderSource> {
  files: SelectedFile<Folder>[];
  /** Each folder looked at, with the rules its files were checked against (reused for later single-file checks). */
  rules: Map<Folder, IgnoreRules>;
  /** The files outside the folders that rules were looked for in (a change to one calls for a new selection). */
  outsideRuleFiles: string[];
  /** Files left out by rule or by the file-count limit, per reason. */
  skipped: Map<SkipReason, number>;
  /** The symbolic links whose files were left out (each link once, however many files lie below it). */
  links: LinkOnPath[];
}

/**
 * Lists the folders' files and keeps those no ignore rule excludes, up to `maxFiles` in all (which
 * ones win beyond that: `filePriority.ts`). A file is kept only under its real path: one with a
 * symbolic link on its way is left out, so nothing outside the folders is read, and a file of the
 * folder a link points to is indexed once, judged by the rules under its own name. The loops over
 * the paths yield to the event loop now and then: a workspace of 50,000 files must not freeze the
 * extension host (its status bar, the consent dialog) while they are checked.
 */
export async function selectFiles<Folder extends FolderSource>(
  folders: readonly Folder[],
  limits: SelectionLimits,
  signal?: AbortSignal,
): Promise<FileSelection<Folder>> {
  const selection: FileSelection<Folder> = { files: [], rules: new Map(), outsideRuleFiles: [], skipped: new Map(), links: [] };
  const eligible: SelectedFile<Folder>[] = [];
  for (const folder of folders) {
    const paths = await withoutLinks(folder, (await folder.listFiles(signal)).sort(), selection.links);
    const outside = await folder.readRepositoryRules?.(paths);
    const rules = await loadRules(folder, paths, outside);
    selection.rules.set(folder, rules);
    selection.outsideRuleFiles.push(...(outside?.consulted ?? []));
    await forEachYielding(paths, (path) => {
      if (IgnoreRules.isIgnoreFile(path)) return;
      const reason = rules.excludes(path);
      if (reason) count(selection.skipped, reason);
      else eligible.push({ folder, path, key: folder.keyOf(path) });
    });
  }
  const { kept, left } = keepWithinLimit(eligible, limits.maxFiles);
  selection.files = kept;
  if (left > 0) selection.skipped.set('overLimit', left);
  return selection;
}

/** The paths with no symbolic link on their way; the links found are added to `links`, each once. */
async function withoutLinks(folder: FolderSource, paths: readonly string[], links: LinkOnPath[]): Promise<string[]> {
  const finder = new LinkFinder(folder.linkProbe());
  const found = new Set<string>();
  const real: string[] = [];
  await forEachYielding(paths, async (path) => {
    const onTheWay = await finder.firstLink(path);
    if (!onTheWay) real.push(path);
    else if (!found.has(onTheWay.link)) {
      found.add(onTheWay.link);
      links.push(onTheWay);
    }
  });
  return real;
}

/** The rules from outside the folder, then the folder's own `.gitignore` files (which take precedence). */
async function loadRules(folder: FolderSource, paths: readonly string[], outside: RepositoryRules | undefined): Promise<IgnoreRules> {
  const rules = new IgnoreRules(outside?.folderPath);
  for (const { directory, content } of outside?.sources ?? []) rules.addRules(directory, content);
  for (const path of paths.filter((listed) => IgnoreRules.isIgnoreFile(listed))) {
    const bytes = await folder.readFile(path);
    const text = bytes && decodeSourceText(bytes);
    if (text !== undefined) rules.addGitignore(path, text);
  }
  return rules;
}

/** A selected file's text, or why it has none worth indexing (too large, binary, vanished). */
export async function readSelectedFile(file: SelectedFile, maxFileBytes: number): Promise<SourceFile | SkipReason> {
  const size = await file.folder.fileSize(file.path);
  if (size === undefined) return 'unreadable';
  if (size > maxFileBytes) return 'tooLarge';
  const bytes = await file.folder.readFile(file.path);
  if (!bytes) return 'unreadable';
  if (bytes.byteLength > maxFileBytes) return 'tooLarge'; // grew since it was measured
  const text = decodeSourceText(bytes);
  return text === undefined ? 'binary' : { path: file.key, text };
}

/** Files read at once ahead of the indexer: reading waits on the disk (or VS Code's file system), not on the CPU. */
export const READ_AHEAD = 8;

/**
 * The selected files' texts, in order, read ahead of the indexer by up to `readAhead` files at a
 * time, so that the next files are on their way while it chunks and hashes one and while its
 * requests are in flight, and a batch is ready as soon as a request slot frees. Nothing is read
 * before the first file is asked for, nor more than `readAhead` files past the one asked for last
 * (stopping early reads no further). A file whose content disqualifies it is reported to `onSkip`
 * and passed over.
 */
export async function* readSelectedFiles(
  files: readonly SelectedFile[],
  maxFileBytes: number,
  onSkip: (file: SelectedFile, reason: SkipReason) => void,
  readAhead = READ_AHEAD,
): AsyncGenerator<SourceFile> {
  // Each read's outcome is kept, failure included, until its turn: a file read ahead must not fail the run early.
  const reading: Promise<{ read: SourceFile | SkipReason } | { error: unknown }>[] = [];
  let next = 0;
  for (let i = 0; i < files.length; i++) {
    while (next < files.length && next < i + Math.max(1, readAhead)) {
      reading.push(
        readSelectedFile(files[next++], maxFileBytes).then(
          (read) => ({ read }),
          (error: unknown) => ({ error }),
        ),
      );
    }
    const outcome = await reading.shift()!;
    if ('error' in outcome) throw outcome.error;
    if (typeof outcome.read === 'string') onSkip(files[i], outcome.read);
    else yield outcome.read;
  }
}

function count(counts: Map<SkipReason, number>, reason: SkipReason): void {
  counts.set(reason, (counts.get(reason) ?? 0) + 1);
}
