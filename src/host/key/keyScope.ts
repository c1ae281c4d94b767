import * as vscode from 'vscode';
import { findKeyScope } from '../../core';
import type { ClientProvider } from '../clientProvider';
import type { SettingsReader } from '../settings/settingsReader';
import { plainLabel } from '../plainLabel';

/** The scope's name as the settings list it, with what it is for. */
export function scopeLabel(scope: string): string {
  switch (scope) {
    case 'GIGACHAT_API_PERS':
      return vscode.l10n.t('personal ({0})', scope);
    case 'GIGACHAT_API_B2B':
      return vscode.l10n.t('business, prepaid ({0})', scope);
    case 'GIGACHAT_API_CORP':
      return vscode.l10n.t('business, postpaid ({0})', scope);
    default:
      return plainLabel(scope);
  }
}

/**
 * The scope `key` works with: `configured` (the settings') first, then the others while the service
 * says the key is for another scope (see core/service/keyScopes.ts). Each try uses a client of its own,
 * closed after it: the window's client keeps the settings' scope until the settings change.
 */
export function detectKeyScope(key: string, clients: ClientProvider, configured: string, signal: AbortSignal): Promise<string> {
  return findKeyScope(async (scope) => {
    const client = await clients.createFor(key, scope);
    try {
      await client.authorize({ signal });
    } finally {
      void client.dispose();
    }
  }, configured);
}

/**
 * Puts `scope` in the settings where the scope in use comes from (the workspace's settings when
 * they set one, else the user's). Resolves with the scope it replaced, or undefined when it was
 * already the one in use and nothing was written.
 */
export async function useScope(scope: string, settings: SettingsReader): Promise<string | undefined> {
  const previous = settings.get('scope');
  if (scope === previous) return undefined;
  await settings.write('scope', scope);
  return previous;
}
