import * as path from 'node:path';
import * as vscode from 'vscode';

/**
 * Whether a link in @gigachat's answer may stay a link, beyond http(s) ones (core/agent/linkGuard.ts
 * makes the rest inert): a `file:` URI of a file inside one of the workspace's folders, with no
 * `..` to climb out. The model writes these links, and it is untrusted: `file:///etc/passwd`,
 * `file://server/share` or `vscode://…` must not be one click away.
 */
export function isWorkspaceFileLink(destination: string): boolean {
  let uri: vscode.Uri;
  try {
    uri = vscode.Uri.parse(destination.trim(), true);
  } catch {
    return false;
  }
  if (uri.scheme !== 'file' || uri.authority !== '') return false;
  if (uri.path.split('/').includes('..') || path.posix.normalize(uri.path) !== uri.path) return false;
  return vscode.workspace.getWorkspaceFolder(uri) !== undefined;
}
