import { statSync } from 'node:fs';
import * as os from 'node:os';
import * as vscode from 'vscode';
import { diskLinkProbe, readRepositoryRules, ROOT_EXCLUDES_PATH, type FolderSource, type LinkProbe, type RepositoryRules } from '../../core';
import { virtualLinkProbe } from './virtualLinkProbe';

/**
 * Directories never worth listing. The core's deny list excludes them too; naming them here only
 * spares `findFiles` from walking them (a `node_modules` can hold more files than the project).
 */
const HEAVY_DIRECTORIES = ['**/node_modules/**', '**/.git/**', '**/.hg/**', '**/.svn/**', '**/.venv/**', '**/__pycache__/**', '**/.gradle/**', '**/.next/**'];

/**
 * A workspace folder listed with `workspace.findFiles`, honouring `files.exclude` and `search.exclude`.
 * `findFiles` follows symbolic links (as `search.followSymlinks` says): selectFiles leaves out what they bring.
 */
export class WorkspaceFolderSource implements FolderSource {
  /** The folder's name, which starts paths in a multi-root workspace. */
  readonly name: string;
  /** Where it is on this machine's disk; undefined for a folder on another file system. */
  readonly diskPath: string | undefined;
  /** Names that differ only in case name one file here (a virtual file system may be so too: assumed, to be safe). */
  readonly caseInsensitive: boolean;

  constructor(readonly folder: vscode.WorkspaceFolder) {
    this.name = folder.name;
    this.diskPath = folder.uri.scheme === 'file' ? folder.uri.fsPath : undefined;
    this.caseInsensitive = this.diskPath === undefined || isCaseInsensitive(this.diskPath);
  }

  async listFiles(signal?: AbortSignal): Promise<string[]> {
    const cancellation = new vscode.CancellationTokenSource();
    signal?.addEventListener('abort', () => cancellation.cancel(), { once: true });
    try {
      const uris = await vscode.workspace.findFiles(new vscode.RelativePattern(this.folder, '**/*'), excludeGlob(this.folder), undefined, cancellation.token);
      return uris.map((uri) => this.relativePath(uri)).filter((path): path is string => path !== undefined);
    } finally {
      cancellation.dispose();
    }
  }

  /** Whether `files.exclude`/`search.exclude` let `path` through (one `findFiles` for one file). */
  async isListed(path: string): Promise<boolean> {
    const found = await vscode.workspace.findFiles(new vscode.RelativePattern(this.folder, escapeGlob(path)), excludeGlob(this.folder), 1);
    return found.length > 0;
  }

  /** Some of the files below the folder `path` that `files.exclude`/`search.exclude` let through (at most `limit`). */
  async listedUnder(path: string, limit: number): Promise<string[]> {
    const found = await vscode.workspace.findFiles(new vscode.RelativePattern(this.folder, `${escapeGlob(path)}/**`), excludeGlob(this.folder), limit);
    return found.map((uri) => this.relativePath(uri)).filter((relative): relative is string => relative !== undefined);
  }

  async readFile(path: string): Promise<Uint8Array | undefined> {
    try {
      return await vscode.workspace.fs.readFile(this.uriOf(path));
    } catch {
      return undefined;
    }
  }

  async fileSize(path: string): Promise<number | undefined> {
    try {
      const stat = await vscode.workspace.fs.stat(this.uriOf(path));
      // A symbolic link to a file is `File | SymbolicLink`: refused.
      return stat.type === vscode.FileType.File ? stat.size : undefined;
    } catch {
      return undefined;
    }
  }

  async isFolder(path: string): Promise<boolean> {
    try {
      return ((await vscode.workspace.fs.stat(this.uriOf(path))).type & vscode.FileType.Directory) !== 0;
    } catch {
      return false;
    }
  }

  async readRepositoryRules(listed: readonly string[] = []): Promise<RepositoryRules> {
    if (this.folder.uri.scheme === 'file') return readRepositoryRules(this.folder.uri.fsPath, { home: os.homedir(), variables: process.env }, listed);
    // A virtual folder has no place on this machine's disk to look above it: only its own excludes are known.
    const bytes = await this.readFile(ROOT_EXCLUDES_PATH);
    const sources = bytes ? [{ directory: '', content: new TextDecoder().decode(bytes) }] : [];
    return { folderPath: '', sources, consulted: [] };
  }

  linkProbe(): LinkProbe {
    // A folder on this machine's disk has real paths; elsewhere only the links can be seen, and all are refused.
    return this.folder.uri.scheme === 'file' ? diskLinkProbe(this.folder.uri.fsPath) : virtualLinkProbe(this.folder.uri);
  }

  keyOf(path: string): string {
    return this.uriOf(path).toString();
  }

  uriOf(path: string): vscode.Uri {
    return vscode.Uri.joinPath(this.folder.uri, ...path.split('/'));
  }

  /** `uri` relative to this folder with `/` separators, or undefined when it lies outside. */
  relativePath(uri: vscode.Uri): string | undefined {
    const base = this.folder.uri.path.endsWith('/') ? this.folder.uri.path : `${this.folder.uri.path}/`;
    if (uri.scheme !== this.folder.uri.scheme || uri.authority !== this.folder.uri.authority || !uri.path.startsWith(base)) return undefined;
    return uri.path.slice(base.length) || undefined;
  }
}

/** The source of the workspace folder `uri` lies in, and its path there; undefined when no source holds it. */
export function locateIn(sources: Iterable<WorkspaceFolderSource>, uri: vscode.Uri): { source: WorkspaceFolderSource; path: string } | undefined {
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  const source = folder && [...sources].find((candidate) => candidate.folder.uri.toString() === folder.uri.toString());
  const path = source?.relativePath(uri);
  return source && path !== undefined ? { source, path } : undefined;
}

/** `files.exclude` and `search.exclude` of the folder (patterns switched on), plus the heavy directories, as one glob. */
function excludeGlob(folder: vscode.WorkspaceFolder): string {
  const patterns = new Set(HEAVY_DIRECTORIES);
  for (const section of ['files', 'search']) {
    // eslint-disable-next-line no-restricted-syntax -- VS Code's own exclusions, per folder (their change reaches search through the settings reader)
    const excluded = vscode.workspace.getConfiguration(section, folder.uri).get<Record<string, unknown>>('exclude', {});
    // `true` excludes; `{ when: … }` (exclude a file only when a sibling exists) is left to the other rules.
    for (const [pattern, on] of Object.entries(excluded)) if (on === true) for (const each of expandBraces(pattern)) patterns.add(each);
  }
  return `{${[...patterns].join(',')}}`;
}

/**
 * `a/*.{js,map}` → `a/*.js`, `a/*.map`: the patterns are joined into one `{…,…}` group, and a
 * group cannot nest in VS Code's globs.
 */
function expandBraces(pattern: string): string[] {
  const open = pattern.indexOf('{');
  const close = open === -1 ? -1 : pattern.indexOf('}', open);
  if (close === -1) return [pattern];
  const head = pattern.slice(0, open);
  const tail = pattern.slice(close + 1);
  return pattern
    .slice(open + 1, close)
    .split(',')
    .flatMap((option) => expandBraces(head + option + tail));
}

/** A path as a glob that matches only itself. */
function escapeGlob(path: string): string {
  return path.replace(/[[\]{}*?!]/g, (char) => `[${char}]`);
}

/** Whether the disk `path` is on lies on a case-insensitive file system: the same folder under its name in other case. */
function isCaseInsensitive(path: string): boolean {
  const swapped = path.replace(/[a-zA-Z]/g, (letter) => (letter === letter.toLowerCase() ? letter.toUpperCase() : letter.toLowerCase()));
  if (swapped === path) return process.platform === 'win32' || process.platform === 'darwin';
  try {
    const [real, other] = [statSync(path), statSync(swapped)];
    return real.ino === other.ino && real.dev === other.dev;
  } catch {
    return false;
  }
}
