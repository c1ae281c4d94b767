import { completeAt, InfillServer, type Completion, type CompletionRequest, type InfillServerKind, type Usage } from '../../core';
import type { ClientProvider } from '../clientProvider';
import type { SettingsReader } from '../settings/settingsReader';
import { Disposable } from '../dispose';
import type { Log } from '../log';
import type { KeyStore } from '../key/secrets';
import type { TrustedRoot } from '../trust/trustedRoot';
import type { ServerKeyStore } from './serverKey';
import { warnIfUnencrypted } from './unencryptedServer';

/** What writes the suggestions: GigaChat's service, or a fill-in-the-middle server of the user's. */
export interface Completer {
  /** The model, as the status bar names it. */
  readonly name: string;
  /** The server's address, for a self-hosted one: its failures are its own, not the service's. */
  readonly server?: string;
  /** Whether it can be asked now (GigaChat needs its key; a server of the user's does not). */
  ready(): Promise<boolean>;
  complete(
    request: CompletionRequest,
    options: { signal: AbortSignal; sessionId: string; maxWaitMs?: number; onPartial?: (text: string) => void; onUsage?: (usage: Usage) => void },
  ): Promise<Completion>;
}

/**
 * The completer `gigachat.completions.provider` names. A self-hosted server is connected once
 * and kept until its settings, the proxy, the trusted roots or its key change; it goes through the
 * same proxy and trusts the same roots as the service.
 */
export class Completers extends Disposable {
  private server?: { key: string; completer: Promise<Completer & { dispose(): Promise<void> }> };

  constructor(
    private readonly clients: ClientProvider,
    private readonly settings: SettingsReader,
    private readonly keys: KeyStore,
    private readonly serverKey: ServerKeyStore,
    trustedRoot: TrustedRoot,
    private readonly log: Log,
  ) {
    super();
    this._register(
      settings.onDidChange((change) => {
        if (change.affects('completions') || change.callsFor('connection')) this.drop();
      }),
    );
    this._register(trustedRoot.onDidChange(() => this.drop()));
    this._register(serverKey.onDidChange(() => this.drop()));
  }

  /** The completer the settings name now. */
  async current(): Promise<Completer> {
    const provider = this.settings.get('completions.provider');
    if (provider === 'gigachat') return this.service();
    const settings = {
      kind: provider,
      url: this.settings.get('completions.serverUrl'),
      model: this.settings.get('completions.serverModel'),
      template: this.settings.get('completions.fimTemplate'),
    };
    const key = JSON.stringify(settings);
    if (this.server?.key !== key) {
      this.drop();
      this.server = { key, completer: this.connect(settings) };
    }
    return this.server.completer;
  }

  override dispose(): void {
    this.drop();
    super.dispose();
  }

  private service(): Completer {
    return {
      name: this.settings.get('completions.model'),
      ready: () => this.keys.has(),
      complete: async (request, options) => completeAt(await this.clients.get(), request, options),
    };
  }

  private async connect(settings: { kind: InfillServerKind; url: string; model: string; template: string }): Promise<Completer & { dispose(): Promise<void> }> {
    const { ca, proxy } = await this.clients.connection();
    const server = new InfillServer({
      ...settings,
      template: settings.template || undefined,
      apiKey: async () => {
        const key = await this.serverKey.get();
        if (key) this.log.addSecret(key);
        return key;
      },
      ca,
      proxy,
      logger: this.log,
    });
    this.log.info(`Completions: from the ${settings.kind} server ${server.name}.`);
    warnIfUnencrypted(settings.url);
    return {
      name: server.name,
      server: settings.url,
      // An address and a model are all it needs; a missing one is said by the request's error.
      ready: () => Promise.resolve(true),
      complete: (request, options) => server.complete(request, options),
      dispose: () => server.dispose(),
    };
  }

  private drop(): void {
    const dropped = this.server;
    this.server = undefined;
    void dropped?.completer.then((completer) => completer.dispose()).catch(() => undefined);
  }
}
