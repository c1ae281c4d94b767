/**
 * The part of VS Code's built-in git extension API (`vscode.git`, API version 1) that GigaChat
 * uses, typed here because the extension ships its typings as a source file (git.d.ts) rather than
 * a package. Only what is read is declared; the shapes follow git.d.ts.
 */
import * as vscode from 'vscode';

/** A change's kind as git reports it (git.d.ts `Status`; only the values read are named). */
export const enum GitStatus {
  IndexModified = 0,
  IndexAdded = 1,
  IndexDeleted = 2,
  IndexRenamed = 3,
  Modified = 5,
  Deleted = 6,
  Untracked = 7,
}

export interface GitChange {
  readonly uri: vscode.Uri;
  readonly originalUri: vscode.Uri;
  readonly renameUri: vscode.Uri | undefined;
  readonly status: GitStatus;
}

export interface GitUpstream {
  readonly remote: string;
  readonly name: string;
  readonly commit?: string;
}

export interface GitBranch {
  readonly name?: string;
  readonly commit?: string;
  readonly upstream?: GitUpstream;
  /** Commits on the branch that its upstream does not have. */
  readonly ahead?: number;
}

export interface GitCommit {
  readonly hash: string;
  readonly message: string;
}

export interface GitRepositoryState {
  readonly HEAD: GitBranch | undefined;
  readonly indexChanges: GitChange[];
  readonly workingTreeChanges: GitChange[];
  readonly untrackedChanges?: GitChange[];
  readonly onDidChange: vscode.Event<void>;
}

export interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly inputBox: { value: string };
  readonly state: GitRepositoryState;
  /** The unified diff of the index against HEAD (`cached`), or of the working tree against the index. */
  diff(cached?: boolean): Promise<string>;
  /** The unified diff of one file between two refs. */
  diffBetween(ref1: string, ref2: string, path: string): Promise<string>;
  /** The files changed between two refs. */
  diffBetween(ref1: string, ref2: string): Promise<GitChange[]>;
  /** The unified diff of one file in the working tree against a ref (`git diff ref -- path`). */
  diffWith(ref: string, path: string): Promise<string>;
  /** The files of the working tree that differ from a ref, staged or not (untracked ones aside). */
  diffWith(ref: string): Promise<GitChange[]>;
  log(options?: { maxEntries?: number; path?: string }): Promise<GitCommit[]>;
  /** Reads git's status anew into `state` (which otherwise follows the file watcher, a moment behind). */
  status(): Promise<void>;
}

export interface GitApi {
  /** 'uninitialized' while the git extension is still looking for git and the repositories. */
  readonly state: 'uninitialized' | 'initialized';
  readonly onDidChangeState: vscode.Event<'uninitialized' | 'initialized'>;
  readonly repositories: GitRepository[];
  readonly onDidOpenRepository: vscode.Event<GitRepository>;
  readonly onDidCloseRepository: vscode.Event<GitRepository>;
  getRepository(uri: vscode.Uri): GitRepository | null;
}

interface GitExtension {
  readonly enabled: boolean;
  getAPI(version: 1): GitApi;
}

/** VS Code's git API, or undefined when the git extension is missing or disabled (`git.enabled: false`). */
export async function gitApi(): Promise<GitApi | undefined> {
  const extension = vscode.extensions.getExtension<GitExtension>('vscode.git');
  if (!extension) return undefined;
  const exports = extension.isActive ? extension.exports : await extension.activate();
  return exports.enabled ? exports.getAPI(1) : undefined;
}

/**
 * Why gitApi() gave nothing: VS Code's git extension is disabled, the `git.enabled` setting is off,
 * or the extension is on but found no git on this machine (it has no API then).
 */
export function gitUnavailableReason(): 'extensionDisabled' | 'settingOff' | 'gitNotFound' {
  if (!vscode.extensions.getExtension('vscode.git')) return 'extensionDisabled';
  // eslint-disable-next-line no-restricted-syntax -- git's own setting
  return vscode.workspace.getConfiguration('git').get<boolean>('enabled') === false ? 'settingOff' : 'gitNotFound';
}
