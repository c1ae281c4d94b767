import * as vscode from 'vscode';
import { ServiceError, type BalanceEntry } from '../../core';
import type { ClientProvider } from '../clientProvider';
import type { SettingsReader } from '../settings/settingsReader';
import { offerErrorActions, showErrorNotification } from '../errors/errorActions';
import type { Log } from '../log';
import { countMessage } from '../countMessage';

/** The scope of postpaid business accounts: the service keeps no balance for them and answers 403. */
const POSTPAID_SCOPE = 'GIGACHAT_API_CORP';

/** GigaChat: Show Token Balance: what is left of each of the account's prepaid token packages. */
export async function showTokenBalance(clients: ClientProvider, settings: SettingsReader, log: Log): Promise<void> {
  let entries: BalanceEntry[];
  try {
    entries = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Reading the GigaChat token balance…') },
      async () => (await clients.get()).balance(),
    );
  } catch (error) {
    if (error instanceof ServiceError && error.kind === 'forbidden' && settings.get('scope') === POSTPAID_SCOPE) {
      log.info(`Balance: ${error.message} (postpaid scope)`);
      return offerAccount(
        vscode.l10n.t(
          'A postpaid account ({0}) has no token balance: its tokens are billed after use. GigaChat Studio shows what has been used.',
          POSTPAID_SCOPE,
        ),
        log,
      );
    }
    return showErrorNotification(error, log, () => showTokenBalance(clients, settings, log));
  }
  // Each package is named by the models it pays for (`GigaChat`, `embeddings`), so the message does not name the service again.
  const left = entries.map((entry) => countMessage('{0}: {1|#}', entry.usage, entry.value)).join(' · ');
  return offerAccount(left ? vscode.l10n.t('Tokens left — {0}', left) : vscode.l10n.t('GigaChat reports no prepaid tokens on this account.'), log);
}

/** An information message with a button to the account, where tokens are bought and usage is shown. */
async function offerAccount(message: string, log: Log): Promise<void> {
  await offerErrorActions('info', message, ['openAccount'], log);
}
