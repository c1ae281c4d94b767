import * as vscode from 'vscode';
import { messageOf, ServiceError, isScopeMismatch } from '../../core';
import type { ClientProvider } from '../clientProvider';
import { showErrorNotification } from '../errors/errorActions';
import { detectKeyScope, scopeLabel, useScope } from './keyScope';
import type { Log } from '../log';
import type { SettingsReader } from '../settings/settingsReader';
import { commandId } from '../commands';
import { KeyStore } from './secrets';
import { notify } from '../notify';

/** What setting the key needs: where it is kept, the clients that check it, the settings whose scope it may change. */
export interface KeyServices {
  keys: KeyStore;
  clients: ClientProvider;
  settings: SettingsReader;
  log: Log;
}

/**
 * Set Authorization Key: asks for the key in a password box, checks it at once with a token
 * exchange, and stores it in SecretStorage only when the service accepts it. A rejected key keeps
 * the box open with the reason, so the user can paste again without starting over. Closing the box
 * (Escape) while the key is checked cancels: nothing is stored, whatever the service answers.
 */
export async function setAuthorizationKey(services: KeyServices): Promise<boolean> {
  const { keys, settings, log } = services;
  const input = vscode.window.createInputBox();
  input.title = vscode.l10n.t('GigaChat: Set Authorization Key');
  input.prompt = vscode.l10n.t('Paste the authorization key from your GigaChat API project (developers.sber.ru → Studio → your project → API keys).');
  input.placeholder = vscode.l10n.t('Authorization key');
  input.password = true;
  input.ignoreFocusOut = true;
  const closed = new AbortController();
  try {
    return await new Promise<boolean>((resolve) => {
      input.onDidHide(() => {
        closed.abort();
        resolve(false);
      });
      input.onDidChangeValue(() => (input.validationMessage = undefined));
      const check = async (): Promise<void> => {
        const key = input.value.trim();
        if (!key || closed.signal.aborted) return;
        input.busy = true;
        input.enabled = false;
        // The notification's buttons that fix a connection (trust the certificate, retry) check again.
        const verdict = await checkKey(key, services, closed.signal, check);
        if (closed.signal.aborted) return;
        input.busy = false;
        input.enabled = true;
        if (verdict.accepted) {
          // A business key tried as personal works once its own scope is in the settings (said below:
          // it changed a setting). Set before the key, whose change makes the window reconnect with it.
          const replaced = await useScope(verdict.scope, settings);
          if (!(await storeKey(keys, key, log))) {
            input.validationMessage = vscode.l10n.t(
              'GigaChat accepted the key, but VS Code could not keep it in its secret storage (on Linux that needs a keyring, ' +
                'such as GNOME Keyring or KWallet). The GigaChat log says why. ' +
                'Alternatively, start VS Code with the key in the {0} environment variable.',
              KeyStore.variable,
            );
            return;
          }
          resolve(true);
          input.hide();
          void offerChat(
            replaced
              ? vscode.l10n.t(
                  'GigaChat authorization key saved. It is a key for the {0} scope, so GigaChat now uses that scope instead of {1} (the setting gigachat.scope).',
                  scopeLabel(verdict.scope),
                  scopeLabel(replaced),
                )
              : vscode.l10n.t('GigaChat authorization key saved.'),
          );
        } else {
          input.validationMessage = verdict.reason;
        }
      };
      input.onDidAccept(check);
      input.show();
    });
  } finally {
    input.dispose();
  }
}

/** Stores the key; false (with the reason logged) when the secret storage refuses it, e.g. with no keyring. */
async function storeKey(keys: KeyStore, key: string, log: Log): Promise<boolean> {
  try {
    await keys.set(key);
    return true;
  } catch (error) {
    log.error(`VS Code's secret storage did not take the authorization key: ${messageOf(error)}`);
    return false;
  }
}

/** Whether the service accepted the key, or the reason to show under the input. Only a rejected key keeps the box open. */
async function checkKey(
  key: string,
  { clients, settings, log }: KeyServices,
  signal: AbortSignal,
  retry: () => unknown,
): Promise<{ accepted: true; scope: string } | { accepted: false; reason: string }> {
  log.addSecret(key);
  try {
    const scope = await detectKeyScope(key, clients, settings.get('scope'), signal);
    log.info(`The new authorization key was accepted with the scope ${scope}.`);
    return { accepted: true, scope };
  } catch (error) {
    if (signal.aborted) {
      log.info('Setting the authorization key was cancelled while the key was checked; nothing was stored.');
      return { accepted: false, reason: '' };
    }
    if (isScopeMismatch(error)) {
      log.warn(`The new authorization key was rejected for every scope: ${error.message}`);
      return {
        accepted: false,
        reason: vscode.l10n.t(
          "GigaChat knows this key but accepts it for none of the three scopes (personal, business prepaid, business postpaid). Check the project's access to the GigaChat API in your account.",
        ),
      };
    }
    if (error instanceof ServiceError && error.kind === 'auth') {
      log.warn(`The new authorization key was rejected: ${error.message}`);
      return { accepted: false, reason: vscode.l10n.t('GigaChat rejected this key. Check that it is copied whole.') };
    }
    // The key could not be checked (network, certificate, proxy): the notification says why, with
    // the buttons that fix it; the key stays out of storage until a check passes.
    void showErrorNotification(error, log, retry);
    return {
      accepted: false,
      reason: vscode.l10n.t('The key could not be checked: see the notification for why. Once that is fixed, press Enter to check again.'),
    };
  }
}

/** Removes the stored key, and says so truthfully when the environment still supplies one. */
export async function clearAuthorizationKey(keys: KeyStore): Promise<void> {
  const wasStored = await keys.isStored();
  await keys.clear();
  const fromEnvironment = keys.inEnvironment;
  const variable = KeyStore.variable;
  let message: string;
  if (wasStored && fromEnvironment) {
    message = vscode.l10n.t(
      'GigaChat authorization key removed. GigaChat still uses the key in the {0} environment variable: unset it and restart VS Code to stop that.',
      variable,
    );
  } else if (fromEnvironment) {
    message = vscode.l10n.t(
      'No authorization key is stored: GigaChat uses the key in the {0} environment variable. Unset it and restart VS Code to stop that.',
      variable,
    );
  } else if (wasStored) {
    message = vscode.l10n.t('GigaChat authorization key removed.');
  } else {
    message = vscode.l10n.t('No GigaChat authorization key was set.');
  }
  void notify('info', message);
}

/** The key is saved: the next thing a newcomer wants is the chat, one click away. */
async function offerChat(message: string): Promise<void> {
  const openChat = vscode.l10n.t('Open Chat');
  if ((await notify('info', message, [openChat])) === openChat) await vscode.commands.executeCommand(commandId('openChat'));
}
