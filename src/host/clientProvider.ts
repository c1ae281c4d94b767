import * as vscode from 'vscode';
import { messageOf, ChatContracts, LeaseFiles, ServiceClient, StreamScheduler, streamsOfScope, type CertificateSummary, type ProxyOptions } from '../core';
import { loadExtraRoots } from './trust/certificates';
import { Disposable } from './dispose';
import type { Settings, SettingsReader } from './settings/settingsReader';
import type { Log } from './log';
import type { KeyStore } from './key/secrets';
import type { TrustedRoot } from './trust/trustedRoot';

/** How the client reaches the service: the settings, plus the roots and the proxy they add up to. */
export interface Connection {
  settings: Settings;
  /** Extra trusted roots (PEM): `gigachat.caCertificates` and the trusted pinned root. */
  ca: string[];
  /** The pinned root, when the user has trusted it (its PEM is the last of `ca`). */
  pinnedRoot?: CertificateSummary;
  proxy: ProxyOptions;
}

/**
 * How long a replaced client stays open. A caller that got it just before a reconnect (the model
 * list after a key change, a retry after a certificate was trusted) may still be about to send its
 * request; closed at once, that request would fail with "the client is destroyed".
 */
const RETIRE_AFTER_MS = 30_000;

/**
 * Hands out the service client, built on first use (nothing connects at activation) and rebuilt
 * when a connection setting or the trusted root changes. A changed key or scope drops the cached token.
 */
export class ClientProvider extends Disposable {
  /** The client in use, with the roots it trusts (see `trusts`). */
  private current?: Promise<{ client: ServiceClient; roots: readonly string[] }>;
  /** Replaced clients still open, with the timer that closes each. */
  private readonly retiring = new Map<NodeJS.Timeout, () => void>();
  /** One id per window: files the model generates are scoped to the client id that asked. */
  private readonly clientId = crypto.randomUUID();
  /** Which chat contract each host speaks, kept across the clients rebuilt after a settings change. */
  private readonly chatContracts = new ChatContracts();
  /**
   * The account's streams, handed out by priority to every request of every client of this window
   * (kept across the clients rebuilt after a settings change), shared with the other windows
   * through lease files in `leaseDir`.
   */
  readonly scheduler: StreamScheduler;

  constructor(
    private readonly settings: SettingsReader,
    private readonly keys: KeyStore,
    private readonly trustedRoot: TrustedRoot,
    private readonly log: Log,
    private readonly version: string,
    leaseDir?: string,
  ) {
    super();
    this.scheduler = new StreamScheduler({ streams: accountStreams(settings), leases: leaseFiles(leaseDir, log), logger: log });
    this._register({ dispose: () => this.scheduler.dispose() });
    this._register(
      settings.onDidChange((change) => {
        if (change.callsFor('connection')) this.reset('settings changed');
        if (change.affects('scope') || change.affects('streams')) this.scheduler.budget.setGranted(accountStreams(settings));
      }),
    );
    this._register(keys.onDidChange(() => this.reset('authorization key changed')));
    this._register(trustedRoot.onDidChange(() => this.reset('trusted root certificate changed')));
  }

  /**
   * The client in use, built on first use. A caller that has just read the `connection` passes it,
   * so a client built now does not read the settings and roots (the trusted root's file) again.
   */
  get(connection?: Connection): Promise<ServiceClient> {
    if (!this.current) {
      const created = this.create(connection);
      // A client that could not be built is not kept: the next request tries again (after the setting is fixed, say).
      created.catch(() => {
        if (this.current === created) this.current = undefined;
      });
      this.current = created;
    }
    return this.current.then(({ client }) => client);
  }

  /** A client for a key that is not stored yet (to check it before storing), with the settings' scope unless another is given. */
  async createFor(key: string, scope?: string): Promise<ServiceClient> {
    const connection = await this.connection();
    return this.build(() => Promise.resolve(key), scope ? { ...connection, settings: { ...connection.settings, scope } } : connection);
  }

  /**
   * Whether the client in use trusts `pem` (with no client yet, the next one: a key being checked
   * uses one of its own). A root trusted in another window is in the shared storage, but this
   * window's client was built before: it needs a reconnect, not another fix.
   */
  async trusts(pem: string): Promise<boolean> {
    const roots = (await this.current)?.roots ?? (await this.connection()).ca;
    return roots.includes(pem);
  }

  /** The current settings, trusted roots and proxy, as the next client will use them. */
  async connection(): Promise<Connection> {
    const settings = this.settings.settings();
    const { roots } = await loadExtraRoots(settings.caCertificates, this.log);
    const pinnedRoot = await this.trustedRoot.load();
    return { settings, ca: pinnedRoot ? [...roots, pinnedRoot.pem] : roots, pinnedRoot, proxy: this.settings.proxy() };
  }

  /**
   * Drops the current client so the next request builds one from the current settings. Called by
   * whoever changed what a connection trusts and is about to retry: the settings' change event
   * may come later than the retry.
   */
  reconnect(reason: string): void {
    this.reset(reason);
  }

  private async create(known?: Connection): Promise<{ client: ServiceClient; roots: readonly string[] }> {
    const connection = known ?? (await this.connection());
    const client = this.build(async () => {
      const key = await this.keys.get();
      this.log.addSecret(key);
      return key;
    }, connection);
    return { client, roots: connection.ca };
  }

  private build(key: () => Promise<string | undefined>, { settings, ca, proxy }: Connection): ServiceClient {
    for (const secret of proxySecrets(proxy)) this.log.addSecret(secret);
    return new ServiceClient({
      authorizationKey: key,
      scope: settings.scope,
      authUrl: settings.authUrl,
      baseUrl: settings.baseUrl,
      ca,
      proxy,
      timeoutMs: settings.requestTimeout * 1000,
      clientId: this.clientId,
      logger: this.log,
      userAgent: `gigachat-vscode/${this.version} vscode/${vscode.version}`,
      chatContracts: this.chatContracts,
      scheduler: this.scheduler,
    });
  }

  /** Drops the current client; it is closed after RETIRE_AFTER_MS, or when the provider is disposed. */
  private reset(reason?: string): void {
    const previous = this.current;
    this.current = undefined;
    if (!previous) return;
    if (reason) this.log.info(`Reconnecting: ${reason}`);
    const close = () => void previous.then(({ client }) => client.dispose()).catch(() => undefined);
    const timer = setTimeout(() => {
      this.retiring.delete(timer);
      close();
    }, RETIRE_AFTER_MS);
    timer.unref();
    this.retiring.set(timer, close);
  }

  override dispose(): void {
    if (this.isDisposed) return;
    this.reset(); // silently: the log channel may already be gone when the extension stops
    for (const [timer, close] of this.retiring) {
      clearTimeout(timer);
      close();
    }
    this.retiring.clear();
    super.dispose();
  }
}

/** The streams of the account: the setting's, for an account granted more; else its scope's. */
function accountStreams(settings: SettingsReader): number {
  return settings.get('streams') || streamsOfScope(settings.get('scope'));
}

/** The leases shared with the other windows; without a folder to keep them, this window counts alone. */
function leaseFiles(dir: string | undefined, log: Log): LeaseFiles | undefined {
  if (!dir) return undefined;
  try {
    return new LeaseFiles(dir);
  } catch (error) {
    log.warn(`The streams cannot be shared with other windows (${messageOf(error)}): this window counts its own.`);
    return undefined;
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
