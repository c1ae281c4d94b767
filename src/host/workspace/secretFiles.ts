import * as path from 'node:path';
import * as vscode from 'vscode';
import { IgnoreRules } from '../../core';
import { notify } from '../notify';

/**
 * Whether the user agrees to send code from these files, asked only when one of them looks like it
 * holds secrets (`.env`, keys, credentials: the names semantic search never sends). Choosing the
 * code by hand does not mean knowing what the file is, so such code goes only after an explicit yes.
 */
export async function agreedToSend(uris: readonly vscode.Uri[]): Promise<boolean> {
  const secret = uris.filter((uri) => IgnoreRules.isSecret(workspacePath(uri)));
  if (secret.length === 0) return true;
  const send = vscode.l10n.t('Send anyway');
  const names = secret.map((uri) => path.basename(uri.path)).join(', ');
  const answer = await notify(
    'warning',
    vscode.l10n.t('{0} looks like a file that holds secrets (keys, passwords, tokens). Send its content to GigaChat?', names),
    [send],
    { modal: true, detail: vscode.l10n.t('Secrets sent to an online service can no longer be considered secret.') },
  );
  return answer === send;
}

/** The path the deny list is matched against: relative to its workspace folder, or the base name outside any. */
function workspacePath(uri: vscode.Uri): string {
  const relative = vscode.workspace.asRelativePath(uri, false);
  return path.isAbsolute(relative) ? path.basename(uri.path) : relative.split(path.sep).join('/');
}
