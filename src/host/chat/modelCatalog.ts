import { messageOf, pictureModelAmong, type ServiceClient } from '../../core';
import type { ClientProvider } from '../clientProvider';
import type { SettingsReader } from '../settings/settingsReader';
import type { Log } from '../log';
import type { Disposable } from 'vscode';

/**
 * The chat models for the picker, from `GET /models`, fetched once per client: the provider builds
 * a new client whenever the key or a connection setting changes, so the list follows them. The choice is
 * remembered in the `gigachat.model` setting, so the picker and the settings never disagree.
 */
export class ModelCatalog {
  private cached?: { client: ServiceClient; models: Promise<string[]> };
  /** The last list the service gave, for `known`. */
  private lastFetched?: string[];

  constructor(
    private readonly clients: ClientProvider,
    private readonly settings: SettingsReader,
    private readonly log: Log,
  ) {}

  /** Chat models the account offers, always including the configured one. */
  async list(): Promise<string[]> {
    let models: string[] = [];
    // Twice at most: a key or setting change replaces the client (closing its connections) while
    // the list is on its way; the new client is then asked.
    for (let attempt = 0; attempt < 2; attempt++) {
      const client = await this.clients.get();
      if (this.cached?.client !== client) this.cached = { client, models: this.fetch(client) };
      models = await this.cached.models;
      if (models.length > 0 || (await this.clients.get()) === client) break;
    }
    return this.withSelected(models);
  }

  /**
   * The list as last fetched (by any client; the configured model first when missing), or the
   * configured model alone before the first answer: what can be shown at once.
   */
  known(): string[] {
    return this.withSelected(this.lastFetched ?? []);
  }

  /** Calls `listener` when the selected model or the connection (and with it the list) may have changed. */
  onDidChange(listener: () => unknown): Disposable {
    return this.settings.onDidChange((change) => {
      if (change.affects('model') || change.callsFor('connection')) listener();
    });
  }

  selected(): string {
    return this.settings.get('model');
  }

  /**
   * Remembers the choice where it takes effect: in the user's settings, unless this workspace sets
   * its own model, which would override them (the picker would then snap back to it).
   */
  async select(model: string): Promise<void> {
    await this.settings.write('model', model);
  }

  /**
   * Selects a model that sees pictures (the model in use refused a question's pictures): the first
   * of those the service documents as seeing them that the account offers; GigaChat-2-Pro when
   * the list cannot be had. True once it is selected.
   */
  async selectVisionModel(): Promise<boolean> {
    const offered = await this.list().catch((): string[] => []);
    await this.select(pictureModelAmong(offered));
    return true;
  }

  private async fetch(client: ServiceClient): Promise<string[]> {
    try {
      const models = await client.models({ priority: 'background' });
      this.lastFetched = models.filter((m) => m.type === undefined || m.type === 'chat').map((m) => m.id);
      return this.lastFetched;
    } catch (error) {
      // The picker still works with the configured model; the chat itself reports the problem.
      this.log.warn(`Could not list models: ${messageOf(error)}`);
      if (this.cached?.client === client) this.cached = undefined; // ask again next time
      return [];
    }
  }

  /** The models with the configured one first when they do not include it: the picker always shows the choice in use. */
  private withSelected(models: string[]): string[] {
    const selected = this.selected();
    return models.includes(selected) ? models : [selected, ...models];
  }
}
