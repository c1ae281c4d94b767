import * as vscode from 'vscode';
import type { ClientProvider } from '../clientProvider';
import { readSettings } from '../config';
import type { Log } from '../log';

/**
 * The chat models for the picker, from `GET /models`, fetched once per connection. The choice is
 * remembered in the `gigachat.model` setting, so the picker and the settings never disagree.
 */
export class ModelCatalog {
  private models?: Promise<string[]>;

  constructor(
    private readonly clients: ClientProvider,
    private readonly log: Log,
  ) {}

  /** Chat models the account offers, always including the configured one. */
  async list(): Promise<string[]> {
    this.models ??= this.fetch();
    const models = await this.models;
    const selected = readSettings().model;
    return models.includes(selected) ? models : [selected, ...models];
  }

  selected(): string {
    return readSettings().model;
  }

  async select(model: string): Promise<void> {
    await vscode.workspace.getConfiguration('gigachat').update('model', model, vscode.ConfigurationTarget.Global);
  }

  /** Forget the list (the connection or key changed). */
  reset(): void {
    this.models = undefined;
  }

  private async fetch(): Promise<string[]> {
    try {
      const models = await (await this.clients.get()).models();
      return models.filter((m) => m.type === undefined || m.type === 'chat').map((m) => m.id);
    } catch (error) {
      // The picker still works with the configured model; the chat itself reports the problem.
      this.log.warn(`Could not list models: ${(error as Error).message}`);
      this.models = undefined;
      return [];
    }
  }
}
