import * as vscode from 'vscode';
import { Disposable } from '../dispose';
import { notify } from '../notify';

const KEY_ID = 'gigachat.completionServerKey';

/**
 * The bearer token a self-hosted completion server (or the gateway before it) may ask for: in
 * VS Code's SecretStorage only, as the authorization key is, never in settings.
 */
export class ServerKeyStore extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;

  constructor(private readonly storage: vscode.SecretStorage) {
    super();
    this._register(storage.onDidChange((event) => event.key === KEY_ID && this.changed.fire()));
  }

  async get(): Promise<string | undefined> {
    return (await this.storage.get(KEY_ID)) || undefined;
  }

  /** Asks for the token; an empty answer removes the one stored. */
  async ask(): Promise<void> {
    const key = await vscode.window.showInputBox({
      title: vscode.l10n.t('Completion Server Token'),
      prompt: vscode.l10n.t('The token your completion server asks for (sent as a bearer token). Leave empty to remove the stored one.'),
      password: true,
      ignoreFocusOut: true,
    });
    if (key === undefined) return;
    if (key.trim()) await this.storage.store(KEY_ID, key.trim());
    else await this.storage.delete(KEY_ID);
    void notify('info', key.trim() ? vscode.l10n.t('The completion server token is stored.') : vscode.l10n.t('The completion server token is removed.'));
  }
}
