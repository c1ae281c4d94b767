import * as path from 'node:path';
import * as vscode from 'vscode';

/**
 * Watches the files outside the workspace that ignore rules were read from (the `.gitignore` files
 * above a folder, the repository's `info/exclude` and config, the user's git excludes file and
 * config; see readRepositoryRules), including those not written yet: a change to one can exclude
 * files that are indexed, so it calls for a new scan. The workspace's own watcher never sees them.
 */
export class OutsideRulesWatcher implements vscode.Disposable {
  private watchers: vscode.Disposable[] = [];

  constructor(private readonly onChange: (file: string) => void) {}

  /** Watches `files` from now on, instead of those watched before. */
  watch(files: readonly string[]): void {
    this.dispose();
    for (const file of new Set(files)) {
      // One file, not a tree: VS Code watches its directory without recursing, wherever it is.
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(path.dirname(file)), path.basename(file)));
      const changed = () => this.onChange(file);
      this.watchers.push(watcher, watcher.onDidCreate(changed), watcher.onDidChange(changed), watcher.onDidDelete(changed));
    }
  }

  dispose(): void {
    for (const watcher of this.watchers) watcher.dispose();
    this.watchers = [];
  }
}
