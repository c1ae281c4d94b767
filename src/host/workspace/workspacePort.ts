import * as os from 'node:os';
import * as vscode from 'vscode';
import { WorkspaceFiles, type PathRefusalReason, type PathVerdict } from '../../core';
import { locateIn, WorkspaceFolderSource } from '../search/workspaceFolderSource';

/** A file of the workspace that may be read, sent or changed. */
export interface WorkspaceFile {
  uri: vscode.Uri;
  /** As the model and the user read it: relative to the workspace (with the folder's name in a multi-root workspace). */
  label: string;
  /** Relative to its folder, `/`-separated, as it is on disk. */
  path: string;
  /** Whether the file is there now (a change may create it). */
  exists: boolean;
}

/** Why a path cannot be used, said to the model so it can try another way. */
export interface PathRefusal {
  refused: string;
  /** Which rule refused it, for callers that act on the kind (a change's files named with why their content is not sent). */
  reason: PathRefusalReason;
}

export function isRefusal(value: WorkspaceFile | PathRefusal): value is PathRefusal {
  return 'refused' in value;
}

/**
 * The one way in to the workspace's files for what sends them to the service or changes them
 * (the agent's tools, codebase context): paths are resolved and judged by the rules the index
 * uses (core/workspace/workspaceFiles.ts): inside the folders, no symbolic link anywhere on the
 * way, no secret, ignored or version-control file, whatever the folder's scheme. Make one per
 * call: it reads each folder's rules and links once, and sees later changes only when made anew.
 */
export class WorkspacePort {
  private readonly sources: WorkspaceFolderSource[];
  private readonly files: WorkspaceFiles<WorkspaceFolderSource>;

  constructor(folders: readonly vscode.WorkspaceFolder[] = vscode.workspace.workspaceFolders ?? []) {
    this.sources = folders.map((folder) => new WorkspaceFolderSource(folder));
    this.files = new WorkspaceFiles(this.sources, { home: os.homedir() });
  }

  /** A path as a model gives it. */
  async resolve(given: string): Promise<WorkspaceFile | PathRefusal> {
    return fileOf(await this.files.resolve(given));
  }

  /** A file known by its URI (a search hit, a file search's result): the same rules. */
  async judge(uri: vscode.Uri): Promise<WorkspaceFile | PathRefusal> {
    const located = locateIn(this.sources, uri);
    if (!located) return { refused: `${vscode.workspace.asRelativePath(uri)} is not inside the workspace's folders.`, reason: 'outside' };
    return fileOf(await this.files.judge(located.source, located.path));
  }

  /** The file's text as the editor has it (unsaved changes included), or undefined when there is no such file or it cannot be read as text. */
  async readText(file: WorkspaceFile): Promise<string | undefined> {
    const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === file.uri.toString());
    if (open) return open.getText();
    if (!file.exists) return undefined;
    return (await vscode.workspace.openTextDocument(file.uri).then(undefined, () => undefined))?.getText();
  }
}

function fileOf(verdict: PathVerdict<WorkspaceFolderSource>): WorkspaceFile | PathRefusal {
  if (!verdict.ok) return { refused: verdict.message, reason: verdict.reason };
  return { uri: verdict.folder.uriOf(verdict.path), label: verdict.label, path: verdict.path, exists: verdict.exists };
}
