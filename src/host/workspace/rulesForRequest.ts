import * as vscode from 'vscode';
import { fitRules, readProjectRules, type ProjectRule, type RuleAccess } from '../../core';
import { isRefusal, WorkspacePort } from './workspacePort';

/** The rules a request was sent with: their text for the model, and the files, for the answer to name. */
export interface UsedRules {
  /** Empty when there are none. */
  text: string;
  files: { uri: vscode.Uri; label: string }[];
}

export const NO_RULES: UsedRules = { text: '', files: [] };

/** What the rules may take of a request: the prompt layer's cap (core/prompt/systemText.ts). */
export { RULES_BUDGET_TOKENS } from '../../core';

/**
 * The project's rule files (core/rules) that apply to `targets`, the files a request is about (none:
 * the project-wide rules), within `budgetTokens`. Workspace content like any other: read through the
 * workspace port (inside the folders, no link on the way, no secret, nothing .gitignore excludes),
 * and never in Restricted Mode.
 */
export async function projectRulesFor(targets: readonly vscode.Uri[], budgetTokens: number): Promise<UsedRules> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (!vscode.workspace.isTrusted || folders.length === 0 || budgetTokens <= 0) return NO_RULES;
  const byFolder = new Map<vscode.WorkspaceFolder, string[]>();
  for (const target of targets) {
    const folder = vscode.workspace.getWorkspaceFolder(target);
    if (folder) byFolder.set(folder, [...(byFolder.get(folder) ?? []), vscode.workspace.asRelativePath(target, false)]);
  }
  // A request about no file of the workspace: the first folder's project-wide rules.
  if (byFolder.size === 0) byFolder.set(folders[0], []);
  const found: { rule: ProjectRule; uri: vscode.Uri }[] = [];
  for (const [folder, paths] of byFolder) {
    const port = new WorkspacePort([folder]);
    const uris = new Map<string, vscode.Uri>();
    const rules = await readProjectRules(folderAccess(folder, port, uris), paths);
    // Several folders: each rule is named with its folder's, as the chat names files.
    const named = (path: string) => (folders.length > 1 ? `${folder.name}/${path}` : path);
    found.push(...rules.map((rule) => ({ rule: { ...rule, path: named(rule.path) }, uri: uris.get(rule.path)! })));
  }
  const fitted = fitRules(
    found.map(({ rule }) => rule),
    budgetTokens,
  );
  return { text: fitted.text, files: fitted.used.map((rule) => ({ label: rule.path, uri: found.find((entry) => entry.rule === rule)!.uri })) };
}

function folderAccess(folder: vscode.WorkspaceFolder, port: WorkspacePort, uris: Map<string, vscode.Uri>): RuleAccess {
  return {
    trusted: vscode.workspace.isTrusted,
    read: async (path) => {
      const file = await port.resolve(path);
      if (isRefusal(file) || !file.exists) return undefined;
      const text = await port.readText(file);
      if (text !== undefined) uris.set(path, file.uri);
      return text;
    },
    list: async (path) => {
      const entries = await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath(folder.uri, ...path.split('/'))).then(undefined, () => []);
      return entries.filter(([, type]) => type === vscode.FileType.File).map(([name]) => name);
    },
  };
}

/** For the user, in a notification or a progress message: the rule files a request followed, named; '' when none. */
export function rulesFollowed(rules: UsedRules): string {
  return rules.files.length > 0 ? vscode.l10n.t("Following the project's rules: {0}.", rules.files.map((file) => file.label).join(', ')) : '';
}

/** For the log: which rule files a request went with. */
export function rulesNote(rules: UsedRules): string {
  return rules.files.length > 0 ? `; the project's rules: ${rules.files.map((file) => file.label).join(', ')}` : '';
}

/** The files in question for a request made in an editor: the active one's, when it is a file of the workspace. */
export function activeFile(): vscode.Uri[] {
  const uri = vscode.window.activeTextEditor?.document.uri;
  return uri && vscode.workspace.getWorkspaceFolder(uri) ? [uri] : [];
}
