import * as path from 'node:path';
import * as vscode from 'vscode';
import { Disposable, disposeAll } from '../dispose';

/**
 * Watches the files outside the workspace that ignore rules were read from (the `.gitignore` files
 * above a folder, the repository's `info/exclude` and config, the user's git excludes file and
 * config; see readRepositoryRules), including those not written yet: a change to one can exclude
 * files that are indexed, so it calls for a new scan. The workspace's own watcher never sees them.
 */
export class OutsideRulesWatcher extends Disposable {
  private watchers: vscode.Disposable[] = [];

  constructor(private readonly onChange: (file: string) => void) {
    super();
    this._register({ dispose: () => this.stop() });
  }

  /** Watches `files` from now on, instead of those watched before. */
  watch(files: readonly string[]): void {
    this.stop();
    if (this.isDisposed) return;
    for (const file of new Set(files)) {
      // One file, not a tree: VS Code watches its directory without recursing, wherever it is.
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(path.dirname(file)), path.basename(file)));
      const changed = () => this.onChange(file);
      this.watchers.push(watcher, watcher.onDidCreate(changed), watcher.onDidChange(changed), watcher.onDidDelete(changed));
    }
  }

  /** Watches nothing until the next `watch`. */
  stop(): void {
    disposeAll(this.watchers.splice(0));
  }
}
