import * as vscode from 'vscode';
import type { FileLocation } from '../../shared/fileLinks';
import { notify } from '../notify';

/**
 * Opens a file of the workspace that a reply cites (or a question's source), at those lines:
 * selected, in the middle of the editor. The path is as the chat names files: relative to the
 * workspace folder, or to the workspace with the folder's name first when several are open. The
 * model may also shorten it to a name found once in the workspace. Nothing outside the workspace
 * is opened; a citation of a file that is not there is said to be so.
 */
export async function openWorkspaceFile(location: FileLocation): Promise<void> {
  const uri = (await fileInFolders(location.file)) ?? (await onlyFileNamed(location.file));
  if (!uri) {
    void notify('warning', vscode.l10n.t('{0} is not a file of this workspace: it may have been moved or deleted.', location.file));
    return;
  }
  const document = await vscode.workspace.openTextDocument(uri);
  const last = Math.min(location.last, document.lineCount) - 1;
  const first = Math.min(location.first - 1, last);
  const range = new vscode.Range(first, 0, last, document.lineAt(last).text.length);
  await vscode.window.showTextDocument(document, { selection: range, preview: true });
  vscode.window.activeTextEditor?.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

async function fileInFolders(file: string): Promise<vscode.Uri | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const segments = file.split('/');
  // A backslash or a drive's colon would be a separator on Windows: `..\\..\\x` must not climb out either.
  if (/[\\:]/.test(file) || segments.some((segment) => segment === '..' || segment === '.' || segment === '')) return undefined;
  const candidates = folders.flatMap((folder) => [
    vscode.Uri.joinPath(folder.uri, ...segments),
    // Several folders open: the chat names a file with its folder's name first.
    ...(folders.length > 1 && segments[0] === folder.name ? [vscode.Uri.joinPath(folder.uri, ...segments.slice(1))] : []),
  ]);
  for (const candidate of candidates) {
    const stat = await vscode.workspace.fs.stat(candidate).then(undefined, () => undefined);
    if (stat && stat.type & vscode.FileType.File) return candidate;
  }
  return undefined;
}

/** The one file of the workspace whose path ends with `file`; undefined when none or several do. */
async function onlyFileNamed(file: string): Promise<vscode.Uri | undefined> {
  // Only plain names go into the pattern: nothing in them is read as a glob.
  if (!/^[\w@+.-]+(?:\/[\w@+.-]+)*$/.test(file) || file.split('/').some((segment) => /^\.+$/.test(segment))) return undefined;
  const found = await vscode.workspace.findFiles(`**/${file}`, undefined, 2);
  return found.length === 1 ? found[0] : undefined;
}
