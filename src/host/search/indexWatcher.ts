import * as vscode from 'vscode';
import type { Log } from '../log';
import type { WorkspaceIndex } from './workspaceIndex';

/** Quiet time after a file's last change before it is re-indexed (a save can fire several events). */
const SETTLE_MS = 300;

/**
 * Keeps the index current as files change: a created or saved file is re-indexed (only its changed
 * chunks are embedded), a deleted one leaves the index, a renamed one keeps its vectors. Changes
 * made in VS Code (saves, Explorer operations, refactorings) arrive through the workspace's events
 * at once; the file system watcher adds changes made outside, which can arrive later or, on some
 * file systems, not at all. Both paths meet in one settle timer per file, so a file is indexed once.
 */
export function watchWorkspace(index: WorkspaceIndex, log: Log): vscode.Disposable {
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const changed = (uri: vscode.Uri) => {
    if (uri.scheme !== 'file' && uri.scheme !== 'vscode-remote') return; // untitled, output, git…
    const key = uri.toString();
    clearTimeout(timers.get(key));
    timers.set(
      key,
      setTimeout(() => {
        timers.delete(key);
        index.fileChanged(uri).catch((error) => log.warn(`Search index: ${(error as Error).message}`));
      }, SETTLE_MS),
    );
  };
  const deleted = (uri: vscode.Uri) => {
    clearTimeout(timers.get(uri.toString()));
    index.fileDeleted(uri).catch((error) => log.warn(`Search index: ${(error as Error).message}`));
  };
  const watcher = vscode.workspace.createFileSystemWatcher('**/*');
  const subscriptions = [
    watcher,
    watcher.onDidCreate(changed),
    watcher.onDidChange(changed),
    watcher.onDidDelete(deleted),
    vscode.workspace.onDidSaveTextDocument((document) => changed(document.uri)),
    vscode.workspace.onDidCreateFiles((event) => event.files.forEach(changed)),
    vscode.workspace.onDidDeleteFiles((event) => event.files.forEach(deleted)),
    vscode.workspace.onDidRenameFiles((event) => {
      for (const { oldUri, newUri } of event.files) index.fileRenamed(oldUri, newUri).catch((error) => log.warn(`Search index: ${(error as Error).message}`));
    }),
  ];
  return new vscode.Disposable(() => {
    for (const timer of timers.values()) clearTimeout(timer);
    for (const subscription of subscriptions) subscription.dispose();
  });
}
