import * as vscode from 'vscode';
import { ServiceClient, type ProxyOptions } from '../core';
import { loadExtraRoots } from './certificates';
import { affectsConnection, proxySettings, readSettings } from './config';
import type { Log } from './log';
import type { KeyStore } from './secrets';

/**
 * Hands out the service client, built on first use (nothing connects at activation) and rebuilt
 * when a connection setting changes. A changed key or scope drops the cached token.
 */
export class ClientProvider implements vscode.Disposable {
  private client?: Promise<ServiceClient>;
  private readonly subscriptions: vscode.Disposable[] = [];
  /** One id per window: files the model generates are scoped to the client id that asked. */
  private readonly clientId = crypto.randomUUID();

  constructor(
    private readonly keys: KeyStore,
    private readonly log: Log,
    private readonly version: string,
  ) {
    this.subscriptions.push(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (affectsConnection(event)) this.reset('settings changed');
      }),
      keys.onDidChange(() => this.reset('authorization key changed')),
    );
  }

  get(): Promise<ServiceClient> {
    this.client ??= this.create();
    return this.client;
  }

  /** A client for a key that is not stored yet (to check it before storing). */
  async createFor(key: string): Promise<ServiceClient> {
    return this.build(async () => key);
  }

  private async create(): Promise<ServiceClient> {
    return this.build(async () => {
      const key = await this.keys.get();
      this.log.addSecret(key);
      return key;
    });
  }

  private async build(key: () => Promise<string | undefined>): Promise<ServiceClient> {
    const settings = readSettings();
    const proxy = proxySettings();
    for (const secret of proxySecrets(proxy)) this.log.addSecret(secret);
    const { roots } = await loadExtraRoots(settings.caCertificates, this.log);
    return new ServiceClient({
      authorizationKey: key,
      scope: settings.scope,
      authUrl: settings.authUrl,
      baseUrl: settings.baseUrl,
      ca: roots,
      proxy,
      timeoutMs: settings.requestTimeout * 1000,
      clientId: this.clientId,
      logger: this.log,
      userAgent: `gigachat-vscode/${this.version} vscode/${vscode.version}`,
    });
  }

  private reset(reason?: string): void {
    const previous = this.client;
    this.client = undefined;
    if (previous) {
      if (reason) this.log.info(`Reconnecting: ${reason}`);
      void previous.then((client) => client.dispose()).catch(() => undefined);
    }
  }

  dispose(): void {
    this.reset(); // silently: the log channel may already be gone when the extension stops
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}

/** The second lock on the proxy's password: the core never logs it, and the log masks it anyway. */
function proxySecrets(proxy: ProxyOptions): string[] {
  const secrets = proxy.authorization ? [proxy.authorization] : [];
  try {
    const password = new URL(proxy.url ?? '').password;
    if (password) secrets.push(password, decodeURIComponent(password));
  } catch {
    // no URL, or not one: nothing to hide
  }
  return secrets;
}
