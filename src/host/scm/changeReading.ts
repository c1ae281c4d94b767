import * as path from 'node:path';
import * as vscode from 'vscode';
import { decodeSourceText, parseUnifiedDiff, readRegularFile, withheldFor, type DiffFile, type PathJudge } from '../../core';
import { isRefusal, WorkspacePort } from '../workspace/workspacePort';
import { GitStatus, type GitChange, type GitRepository } from './gitApi';

/**
 * What may be sent of each path of a repository's change: the workspace port's rules (secrets,
 * ignored and generated files, links, outside the workspace), for core sendableChange.ts, which
 * both the commit message and the review judge their change with.
 */
export function changeJudge(repository: GitRepository): PathJudge {
  const port = new WorkspacePort();
  return async (path) => {
    const verdict = await port.judge(vscode.Uri.joinPath(repository.rootUri, path));
    return isRefusal(verdict) ? withheldFor(verdict.reason) : undefined;
  };
}

/** The change a commit would record now, as git's diff reads it. */
export interface PendingChange {
  /** 'staged' when something is staged; 'all' when nothing is, and VS Code commits every change. */
  scope: 'staged' | 'all';
  files: DiffFile[];
}

/** An untracked file larger than this is named without its lines, as git names a binary file. */
const MAX_UNTRACKED_BYTES = 1024 * 1024;

/**
 * What the next commit holds: the staged change; when nothing is staged, what VS Code's Commit
 * then commits (it offers to stage everything, or does so with `git.enableSmartCommit`): every
 * tracked change, and the untracked files too unless `git.smartCommitChanges` is "tracked".
 * Untracked files have no diff in git's API: each is read as an added file.
 */
export async function readPendingChange(repository: GitRepository): Promise<PendingChange> {
  const staged = parseUnifiedDiff(await repository.diff(true));
  if (staged.length > 0) return { scope: 'staged', files: staged };
  const tracked = parseUnifiedDiff(await repository.diff(false));
  // eslint-disable-next-line no-restricted-syntax -- git's own setting, as VS Code's commit reads it
  const withUntracked = vscode.workspace.getConfiguration('git', repository.rootUri).get<string>('smartCommitChanges') !== 'tracked';
  // The untracked files come from the state: fresh, not as the file watcher last saw them.
  if (withUntracked) await repository.status();
  const untracked = withUntracked ? await Promise.all(untrackedChanges(repository).map((change) => addedFile(repository.rootUri, change.uri))) : [];
  return { scope: 'all', files: [...tracked, ...untracked] };
}

function untrackedChanges(repository: GitRepository): GitChange[] {
  const { workingTreeChanges, untrackedChanges = [] } = repository.state;
  return [...workingTreeChanges, ...untrackedChanges].filter((change) => change.status === GitStatus.Untracked);
}

/** An untracked file as git would show it once added: one hunk of all its lines. */
export async function addedFile(root: vscode.Uri, uri: vscode.Uri): Promise<DiffFile> {
  const relative = path.relative(root.fsPath, uri.fsPath).split(path.sep).join('/');
  const file: DiffFile = { path: relative, status: 'added', binary: true, hunks: [], added: 0, removed: 0 };
  // Judged before it is read: only a regular file, and only so much (a link to /dev/zero, a FIFO is named, never read).
  const read = await readRegularFile(uri.fsPath, MAX_UNTRACKED_BYTES);
  if (read.kind !== 'read') return file;
  const text = decodeSourceText(read.bytes);
  if (text === undefined) return file;
  const lines = text === '' ? [] : text.replace(/\r?\n$/, '').split(/\r?\n/);
  const hunks =
    lines.length === 0
      ? []
      : [{ header: `@@ -0,0 +1,${lines.length} @@`, oldStart: 0, oldLines: 0, newStart: 1, newLines: lines.length, lines: lines.map((line) => `+${line}`) }];
  return { ...file, binary: false, hunks, added: lines.length };
}

/** Where a change's files are, for the project's rules that apply to them. */
export function changedUris(repository: GitRepository, files: readonly { path: string }[]): vscode.Uri[] {
  return files.map((file) => vscode.Uri.joinPath(repository.rootUri, ...file.path.split('/')));
}
