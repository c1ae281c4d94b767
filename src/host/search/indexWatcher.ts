import * as vscode from 'vscode';
import type { WorkspaceIndex } from './workspaceIndex';

/** Quiet time after a file's last change before it is re-indexed (a save can fire several events). */
const SETTLE_MS = 300;

/**
 * Keeps the index current as files change on disk, from VS Code or from outside: a created or
 * saved file is re-indexed (only its changed chunks are embedded), a deleted one leaves the index,
 * a renamed one keeps its vectors.
 */
export function watchWorkspace(index: WorkspaceIndex): vscode.Disposable {
  const watcher = vscode.workspace.createFileSystemWatcher('**/*');
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const settle = (uri: vscode.Uri) => {
    const key = uri.toString();
    clearTimeout(timers.get(key));
    timers.set(
      key,
      setTimeout(() => {
        timers.delete(key);
        void index.fileChanged(uri);
      }, SETTLE_MS),
    );
  };
  const subscriptions = [
    watcher,
    watcher.onDidCreate(settle),
    watcher.onDidChange(settle),
    watcher.onDidDelete((uri) => void index.fileDeleted(uri)),
    vscode.workspace.onDidRenameFiles((event) => {
      for (const { oldUri, newUri } of event.files) void index.fileRenamed(oldUri, newUri);
    }),
  ];
  return new vscode.Disposable(() => {
    for (const timer of timers.values()) clearTimeout(timer);
    for (const subscription of subscriptions) subscription.dispose();
  });
}
