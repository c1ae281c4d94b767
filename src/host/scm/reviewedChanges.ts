import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import { GitStatus, type GitChange, type GitRepository } from './gitApi';

/** Which change a review reads: what is staged, all local changes, or the branch's commits its upstream lacks. */
export type ChangeKind = 'staged' | 'uncommitted' | 'branch';

/** The changes a repository has now, in the order the question offers them. */
export function changeKinds(repository: GitRepository): ChangeKind[] {
  const { HEAD, indexChanges, workingTreeChanges, untrackedChanges = [] } = repository.state;
  const kinds: ChangeKind[] = [];
  if (indexChanges.length > 0) kinds.push('staged');
  if (indexChanges.length + workingTreeChanges.length + untrackedChanges.length > 0) kinds.push('uncommitted');
  if (HEAD?.upstream && (HEAD.ahead ?? 1) > 0) kinds.push('branch');
  return kinds;
}

/** How the question names each change. */
export function changeLabel(kind: ChangeKind, repository: GitRepository): { label: string; description?: string } {
  const upstream = repository.state.HEAD?.upstream;
  switch (kind) {
    case 'staged':
      return { label: vscode.l10n.t('Staged Changes'), description: vscode.l10n.t('what the next commit takes') };
    case 'uncommitted':
      return { label: vscode.l10n.t('All Uncommitted Changes'), description: vscode.l10n.t('staged, unstaged and new files') };
    case 'branch':
      return {
        label: vscode.l10n.t('Branch Against Its Upstream'),
        description: upstream ? vscode.l10n.t('commits not on {0}', `${upstream.remote}/${upstream.name}`) : undefined,
      };
  }
}

/** A new file larger than this is named in the review but not read (it is not code a reviewer reads whole). */
const MAX_UNTRACKED_BYTES = 256 * 1024;

/** The change as git's unified diff, one file after another. */
export async function changeDiff(repository: GitRepository, kind: ChangeKind): Promise<string> {
  if (kind === 'staged') return repository.diff(true);
  if (kind === 'branch') {
    const upstream = repository.state.HEAD?.upstream;
    if (!upstream) return '';
    // `git diff upstream...HEAD`: from where the branch left its upstream, as a pull request shows it.
    const ref = `${upstream.remote}/${upstream.name}`;
    const changes = await repository.diffBetween(ref, 'HEAD');
    return joinDiffs(await Promise.all(changes.map((change) => repository.diffBetween(ref, 'HEAD', changedPath(change)))));
  }
  const tracked = await repository.diffWith('HEAD');
  const { workingTreeChanges, untrackedChanges = [] } = repository.state;
  const untracked = [...untrackedChanges, ...workingTreeChanges.filter((change) => change.status === GitStatus.Untracked)];
  const diffs = await Promise.all(tracked.map((change) => repository.diffWith('HEAD', changedPath(change))));
  const added = await Promise.all(untracked.map((change) => newFileDiff(repository, change.uri)));
  return joinDiffs([...diffs, ...added]);
}

function changedPath(change: GitChange): string {
  return (change.renameUri ?? change.uri).fsPath;
}

function joinDiffs(diffs: readonly string[]): string {
  return diffs.map((diff) => diff.replace(/\n?$/, '\n')).join('');
}

/** A file git does not track yet, as `git diff` would show it once added: every line added. */
async function newFileDiff(repository: GitRepository, uri: vscode.Uri): Promise<string> {
  const path = vscode.workspace.asRelativePath(uri, false);
  const relative = uri.path.startsWith(`${repository.rootUri.path}/`) ? uri.path.slice(repository.rootUri.path.length + 1) : path;
  const header = `diff --git a/${relative} b/${relative}\nnew file mode 100644\n`;
  const stat = await fs.stat(uri.fsPath).catch(() => undefined);
  if (!stat?.isFile()) return '';
  const bytes = stat.size <= MAX_UNTRACKED_BYTES ? await fs.readFile(uri.fsPath).catch(() => undefined) : undefined;
  if (!bytes || bytes.includes(0)) return `${header}Binary files /dev/null and b/${relative} differ\n`;
  const lines = bytes
    .toString('utf8')
    .replace(/\r?\n$/, '')
    .split(/\r?\n/);
  if (lines.length === 1 && lines[0] === '') return header;
  return `${header}--- /dev/null\n+++ b/${relative}\n@@ -0,0 +1,${lines.length} @@\n${lines.map((line) => `+${line}`).join('\n')}\n`;
}
