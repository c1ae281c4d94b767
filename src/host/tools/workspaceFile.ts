import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FolderExclusions } from '../../core';

/** A file of the workspace a tool may read or change. */
export interface WorkspaceFile {
  uri: vscode.Uri;
  /** As the model and the user read it: relative to the workspace (with the folder's name in a multi-root workspace). */
  label: string;
}

/** Why a path cannot be used, said to the model so it can try another way. */
export interface PathRefusal {
  refused: string;
}

const REASONS = {
  secret: 'it is a secret file (keys, credentials, .env): it is never sent to the model',
  builtIn: 'it is in a folder that is never sent to the model (dependencies, build output, version control)',
  gitignore: 'it is excluded by .gitignore, and such files are never sent to the model',
};

/** The exclusion rules of each folder (by path), read once for all the paths one tool call resolves. */
export type ExclusionRules = (folder: string) => Promise<FolderExclusions>;

export function exclusionRules(): ExclusionRules {
  const folders = new Map<string, Promise<FolderExclusions>>();
  return (folder) => {
    if (!folders.has(folder)) folders.set(folder, FolderExclusions.open(folder, { home: os.homedir(), variables: process.env }));
    return folders.get(folder)!;
  };
}

/**
 * Resolves a path a model gave (relative to the workspace, or absolute) to a file inside one of
 * the workspace's folders, by the rules semantic search sends files by: never outside the
 * folders (`..`, a symbolic link that leads out), never a secret, ignored or excluded file.
 * A call that resolves many paths passes one `rules` to them all.
 */
export async function resolveWorkspaceFile(given: string, rules: ExclusionRules = exclusionRules()): Promise<WorkspaceFile | PathRefusal> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) return { refused: 'No folder is open in VS Code.' };
  const located = locate(given.trim(), folders);
  if (!located) return { refused: `${given} is not inside the workspace's folders.` };
  const { folder, relativePath } = located;
  if (relativePath === '' || relativePath.split('/').includes('..')) return { refused: `${given} is not a file inside the workspace's folders.` };
  const uri = vscode.Uri.joinPath(folder.uri, relativePath);
  const label = folders.length > 1 ? `${folder.name}/${relativePath}` : relativePath;
  if (folder.uri.scheme === 'file') {
    if (!(await staysInside(folder.uri.fsPath, uri.fsPath))) return { refused: `${label} leads outside the workspace through a symbolic link.` };
    const reason = await (await rules(folder.uri.fsPath)).exclusion(relativePath);
    if (reason) return { refused: `${label} cannot be used: ${REASONS[reason]}.` };
  }
  return { uri, label };
}

export function isRefusal(value: WorkspaceFile | PathRefusal): value is PathRefusal {
  return 'refused' in value;
}

function locate(given: string, folders: readonly vscode.WorkspaceFolder[]): { folder: vscode.WorkspaceFolder; relativePath: string } | undefined {
  const slashed = given.replace(/\\/g, '/');
  if (path.isAbsolute(given)) {
    for (const folder of folders) {
      const relative = path.relative(folder.uri.fsPath, given).replace(/\\/g, '/');
      if (!relative.startsWith('..') && !path.isAbsolute(relative)) return { folder, relativePath: relative };
    }
    return undefined;
  }
  const normalized = path.posix.normalize(slashed.replace(/^\.\//, ''));
  // In a multi-root workspace a path may start with a folder's name.
  const [first, ...rest] = normalized.split('/');
  const named = folders.length > 1 ? folders.find((folder) => folder.name === first) : undefined;
  if (named && rest.length > 0) return { folder: named, relativePath: rest.join('/') };
  return { folder: folders[0], relativePath: normalized };
}

/** Whether the file (or, for one not written yet, its nearest existing parent) lies inside the folder once links are followed. */
async function staysInside(folder: string, file: string): Promise<boolean> {
  const realFolder = await fs.realpath(folder).catch(() => folder);
  for (let candidate = file; ; candidate = path.dirname(candidate)) {
    const real = await fs.realpath(candidate).catch(() => undefined);
    if (real !== undefined) {
      const relative = path.relative(realFolder, real);
      return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
    }
    if (path.dirname(candidate) === candidate) return false;
  }
}
