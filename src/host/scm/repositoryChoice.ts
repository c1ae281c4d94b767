import * as path from 'node:path';
import * as vscode from 'vscode';
import type { GitApi, GitRepository } from './gitApi';
import { plainLabel } from '../plainLabel';

/** The longest wait for the git extension to finish opening the window's repositories, in ms. */
const REPOSITORIES_WAIT_MS = 15_000;

/**
 * The repository a Source Control command is about. From a Source Control menu VS Code passes the
 * repository: its root's Uri (the input box's menu) or its SourceControl, which has `rootUri`
 * (the view's title and each repository's row when there are several). From the Command Palette:
 * the only repository, the active editor's, or the one the user picks.
 * 'none' when the window has no repository at all; undefined when the user closed the pick.
 * Used by every Source Control command (Write Commit Message, Review Changes).
 */
export async function chooseRepository(api: GitApi, target: unknown, placeHolder: string): Promise<GitRepository | 'none' | undefined> {
  // Right after start-up the git extension may still be opening the repositories; it takes seconds at most.
  await initialized(api, AbortSignal.timeout(REPOSITORIES_WAIT_MS));
  const given = rootOf(target);
  if (given) return api.getRepository(given) ?? 'none';
  const repositories = api.repositories;
  if (repositories.length === 0) return 'none';
  if (repositories.length === 1) return repositories[0];
  const editor = vscode.window.activeTextEditor?.document.uri;
  const ofEditor = editor && api.getRepository(editor);
  if (ofEditor) return ofEditor;
  const picked = await vscode.window.showQuickPick(
    repositories.map((repository) => ({
      label: plainLabel(path.basename(repository.rootUri.fsPath)),
      description: plainLabel(vscode.workspace.asRelativePath(repository.rootUri, true)),
      repository,
    })),
    { placeHolder },
  );
  return picked?.repository;
}

function rootOf(target: unknown): vscode.Uri | undefined {
  if (target instanceof vscode.Uri) return target;
  const rootUri = (target as { rootUri?: unknown } | undefined)?.rootUri;
  return rootUri instanceof vscode.Uri ? rootUri : undefined;
}

/** Right after start-up the git extension is still finding the repositories: wait until it has. */
async function initialized(api: GitApi, signal: AbortSignal): Promise<void> {
  if (api.state === 'initialized') return;
  await new Promise<void>((resolve) => {
    const done = () => {
      listener.dispose();
      signal.removeEventListener('abort', done);
      resolve();
    };
    const listener = api.onDidChangeState((state) => state === 'initialized' && done());
    signal.addEventListener('abort', done);
  });
}
