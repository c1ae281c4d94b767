/**
 * Which settings an error's settings button opens: only those that can fix the cause, found by
 * their ids (`@id:a,b` in the Settings editor's search), not the whole list of the extension's.
 * Imports nothing from VS Code, so the unit tests check it against package.json.
 */
import { settingId } from '../../shared/settings';

/** The error buttons that open settings, and the ids each shows. */
export const SETTINGS_SHOWN = {
  /** VS Code's own proxy settings, which the extension follows (the proxy's credentials go in the address). */
  proxySettings: ['http.proxy', 'http.noProxy'],
  addressSettings: [settingId('authUrl'), settingId('baseUrl')],
  certificateSettings: [settingId('caCertificates')],
  scopeSettings: [settingId('scope')],
  modelSettings: [settingId('model')],
} as const;

export type SettingsButton = keyof typeof SETTINGS_SHOWN | 'openSettings';

/** The Settings editor's search for a button: its settings by id, or every setting of the extension. */
export function settingsQuery(button: SettingsButton): string {
  // The extension's id is package.json's publisher.name.
  return button === 'openSettings' ? '@ext:gigachat-vscode.gigachat' : `@id:${SETTINGS_SHOWN[button].join(',')}`;
}
