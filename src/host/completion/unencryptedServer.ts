import * as vscode from 'vscode';
import { travelsUnencrypted } from '../../core';
import { settingId } from '../../shared/settings';
import { notify } from '../notify';

/** The addresses already warned about in this window: once each is enough. */
const warned = new Set<string>();

/**
 * A completion server reached over plain http on another machine gets the server's token and the
 * code around the cursor unencrypted, readable by anyone on the way: said once per address, with a
 * button to the setting. (http to this machine never leaves it: no warning.)
 */
export function warnIfUnencrypted(url: string): void {
  if (!travelsUnencrypted(url) || warned.has(url)) return;
  warned.add(url);
  const open = vscode.l10n.t('Open Setting');
  const message = vscode.l10n.t(
    'The completion server {0} is reached over plain http: its token and your code travel over the network unencrypted. Use an https:// address if the server has one.',
    new URL(url.trim()).host,
  );
  void notify('warning', message, [open]).then(async (chosen) => {
    if (chosen === open) await vscode.commands.executeCommand('workbench.action.openSettings', `@id:${settingId('completions.serverUrl')}`);
  });
}
