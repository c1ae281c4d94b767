import type * as vscode from 'vscode';

const KEY_ID = 'gigachat.authorizationKey';

/** Read when no key is stored, as the service's official SDKs do (CI machines, `npm start`). */
const KEY_VARIABLE = 'GIGACHAT_CREDENTIALS';

/**
 * The authorization key lives only in VS Code's SecretStorage (the OS keychain where there is
 * one), or in the environment the user started VS Code with: never in settings, state, logs or
 * the webview.
 */
export class KeyStore {
  /** The name of the environment variable a key is read from, for messages that tell the user about it. */
  static readonly variable = KEY_VARIABLE;

  constructor(
    private readonly storage: vscode.SecretStorage,
    private readonly environment: NodeJS.ProcessEnv = process.env,
  ) {}

  async get(): Promise<string | undefined> {
    return (await this.storage.get(KEY_ID)) || this.fromEnvironment() || undefined;
  }

  /** Whether a key is in the secret storage (rather than only in the environment, or nowhere). */
  async isStored(): Promise<boolean> {
    return Boolean(await this.storage.get(KEY_ID));
  }

  /** Whether the environment supplies a key (used when none is stored). */
  get inEnvironment(): boolean {
    return Boolean(this.fromEnvironment());
  }

  async has(): Promise<boolean> {
    return Boolean((await this.get())?.trim());
  }

  async set(key: string): Promise<void> {
    await this.storage.store(KEY_ID, key.trim());
  }

  async clear(): Promise<void> {
    await this.storage.delete(KEY_ID);
  }

  private fromEnvironment(): string | undefined {
    return this.environment[KEY_VARIABLE]?.trim();
  }

  /** Fires when the key changes, in this window or another one. */
  onDidChange(listener: () => void): vscode.Disposable {
    return this.storage.onDidChange((event) => {
      if (event.key === KEY_ID) listener();
    });
  }
}
