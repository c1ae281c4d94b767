import * as vscode from 'vscode';
import { offerErrorActions, WORKBENCH_ACTIONS } from '../errors/errorActions';
import type { Log } from '../log';
import { notify } from '../notify';
import { gitUnavailableReason } from './gitApi';

/**
 * Why a Source Control command has no change to read, told the same way by every one of them
 * (Write Commit Message, Review Changes): what is wrong, and a button that puts it right.
 */

/**
 * The folder is not trusted (Restricted Mode): the commands read and send nothing, as VS Code's
 * own AI features for Source Control are off there. `message` says which feature and why.
 */
export async function showRestrictedMode(message: string, log: Log): Promise<void> {
  await offerErrorActions('warning', message, ['manageTrust'], log);
}

/** gitApi() gave nothing: the git extension is off, `git.enabled` is false, or there is no git on the machine. */
export async function showGitUnavailable(): Promise<void> {
  const reason = gitUnavailableReason();
  const choices: Record<typeof reason, [message: string, button: string, fix: () => Thenable<unknown>]> = {
    settingOff: [
      vscode.l10n.t("Git is turned off in VS Code (the git.enabled setting), so GigaChat cannot read the repository's changes."),
      vscode.l10n.t('Open Setting'),
      () => vscode.commands.executeCommand('workbench.action.openSettings', 'git.enabled'),
    ],
    extensionDisabled: [
      vscode.l10n.t("VS Code's built-in Git extension is disabled, so GigaChat cannot read the repository's changes. Enable the extension."),
      vscode.l10n.t('Show the Git Extension'),
      () => vscode.commands.executeCommand('workbench.extensions.search', '@builtin vscode.git'),
    ],
    gitNotFound: [
      vscode.l10n.t("VS Code found no git on this computer, so GigaChat cannot read the repository's changes. Install git, then reload the window."),
      vscode.l10n.t('Download Git'),
      () => vscode.env.openExternal(vscode.Uri.parse('https://git-scm.com/downloads')),
    ],
  };
  const [message, button, fix] = choices[reason];
  if ((await notify('error', message, [button])) === button) await fix();
}

/** The window has no git repository (repositoryChoice.ts said 'none'). */
export async function showNoRepository(): Promise<void> {
  if (!vscode.workspace.workspaceFolders?.length) {
    const open = vscode.l10n.t('Open Folder');
    const answer = await notify('error', vscode.l10n.t('No folder is open, so there is no repository whose changes GigaChat could read.'), [open]);
    if (answer === open) await vscode.commands.executeCommand(WORKBENCH_ACTIONS.openFolder);
    return;
  }
  const init = vscode.l10n.t('Initialize Repository');
  const answer = await notify('error', vscode.l10n.t('There is no git repository in this window, so there are no changes for GigaChat to read.'), [init]);
  if (answer === init) await vscode.commands.executeCommand('git.init');
}
