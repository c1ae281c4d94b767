import * as vscode from 'vscode';
import type { LinkProbe } from '../../core';

/**
 * The symbolic links of a folder on a file system without real paths (a virtual or remote one):
 * `workspace.fs` flags a link, but cannot say where it leads, so every link is refused.
 */
export function virtualLinkProbe(folder: vscode.Uri): LinkProbe {
  const uriOf = (path: string) => (path ? vscode.Uri.joinPath(folder, ...path.split('/')) : folder);
  const isLink = (type: vscode.FileType) => (type & vscode.FileType.SymbolicLink) !== 0;
  return {
    async entries(directory) {
      const entries = await vscode.workspace.fs.readDirectory(uriOf(directory)).then(undefined, () => undefined);
      return entries && new Map(entries.map(([name, type]) => [name, isLink(type)]));
    },
    isLink: async (path) => {
      const stat = await vscode.workspace.fs.stat(uriOf(path)).then(undefined, () => undefined);
      return stat !== undefined && isLink(stat.type);
    },
    follow: () => Promise.resolve('linkUnresolved'),
  };
}
