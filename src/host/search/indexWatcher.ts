import * as vscode from 'vscode';
import { disposeAll } from '../dispose';
import type { Log } from '../log';
import { ChangeBatcher } from './changeBatcher';
import type { WorkspaceIndex } from './workspaceIndex';
import { messageOf } from '../../core';

/**
 * Keeps the index current as files change: a created or saved file is re-indexed (only its changed
 * chunks are embedded), a deleted one leaves the index, a renamed one keeps its vectors. Changes
 * made in VS Code (saves, Explorer operations, refactorings) arrive through the workspace's events
 * at once; the file system watcher adds changes made outside, which can arrive later or, on some
 * file systems, not at all. Both paths meet in one batch (see ChangeBatcher), so a file saved once
 * is indexed once, and a burst of changes (a branch checkout) reaches the index in one piece.
 */
export function watchWorkspace(index: WorkspaceIndex, log: Log): vscode.Disposable {
  const warn = (error: unknown) => log.warn(`Search index: ${messageOf(error)}`);
  const batcher = new ChangeBatcher((changes) => void index.filesChanged(changes).catch(warn));
  const changed = (uri: vscode.Uri) => {
    if (uri.scheme !== 'file' && uri.scheme !== 'vscode-remote') return; // untitled, output, git…
    batcher.add(uri.toString(), 'changed');
  };
  const deleted = (uri: vscode.Uri) => batcher.add(uri.toString(), 'deleted');
  const watcher = vscode.workspace.createFileSystemWatcher('**/*');
  const owned = [
    batcher,
    watcher,
    watcher.onDidCreate(changed),
    watcher.onDidChange(changed),
    watcher.onDidDelete(deleted),
    vscode.workspace.onDidSaveTextDocument((document) => changed(document.uri)),
    vscode.workspace.onDidCreateFiles((event) => event.files.forEach(changed)),
    vscode.workspace.onDidDeleteFiles((event) => event.files.forEach(deleted)),
    vscode.workspace.onDidRenameFiles((event) => {
      for (const { oldUri, newUri } of event.files) index.fileRenamed(oldUri, newUri).catch(warn);
    }),
  ];
  return new vscode.Disposable(() => disposeAll(owned));
}
