import * as vscode from 'vscode';
import { parseUnifiedDiff, type DiffFile } from '../../core';
import { addedFile } from './changeReading';
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

/** The change as git's diff reads it, file by file; a new file git does not track yet read as all added (changeReading.ts). */
export async function changeFiles(repository: GitRepository, kind: ChangeKind): Promise<DiffFile[]> {
  if (kind === 'staged') return parseUnifiedDiff(await repository.diff(true));
  if (kind === 'branch') {
    const upstream = repository.state.HEAD?.upstream;
    if (!upstream) return [];
    // `git diff upstream...HEAD`: from where the branch left its upstream, as a pull request shows it.
    const ref = `${upstream.remote}/${upstream.name}`;
    const changes = await repository.diffBetween(ref, 'HEAD');
    return parseDiffs(await Promise.all(changes.map((change) => repository.diffBetween(ref, 'HEAD', changedPath(change)))));
  }
  const tracked = await repository.diffWith('HEAD');
  const { workingTreeChanges, untrackedChanges = [] } = repository.state;
  const untracked = [...untrackedChanges, ...workingTreeChanges.filter((change) => change.status === GitStatus.Untracked)];
  const diffs = await Promise.all(tracked.map((change) => repository.diffWith('HEAD', changedPath(change))));
  const added = await Promise.all(untracked.map((change) => addedFile(repository.rootUri, change.uri)));
  return [...parseDiffs(diffs), ...added];
}

function changedPath(change: GitChange): string {
  return (change.renameUri ?? change.uri).fsPath;
}

function parseDiffs(diffs: readonly string[]): DiffFile[] {
  return diffs.flatMap((diff) => parseUnifiedDiff(diff));
}
