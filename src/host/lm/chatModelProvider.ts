import * as vscode from 'vscode';
import {
  askModel,
  messageOf,
  messageText,
  CallStates,
  FileUploads,
  TokenCounter,
  type ChatRequest,
  type ServiceClient,
  type ServiceConversation,
} from '../../core';
import { abortSignalOf } from '../cancellation';
import type { ClientProvider } from '../clientProvider';
import type { SettingsReader } from '../settings/settingsReader';
import { Disposable } from '../dispose';
import type { Log } from '../log';
import type { KeyStore } from '../key/secrets';
import type { ModelCatalog } from '../chat/modelCatalog';
import { languageModelError } from './languageModelError';
import { modelInformation, type GigaChatModelInformation } from './modelInformation';
import { readConversation, readTools } from './requestParts';
import { logRound, reasoningOption, roundTexts } from './roundTexts';
import type { UtilityModels } from './utilityModels';

export interface ModelProviderServices {
  clients: ClientProvider;
  catalog: ModelCatalog;
  keys: KeyStore;
  settings: SettingsReader;
  log: Log;
  /** Asks for the key (the picker's "Manage" and a first non-silent listing). */
  setAuthorizationKey(): Promise<boolean>;
  /** Offers, once, to use GigaChat for VS Code's utility models when its Chat answers with GigaChat. */
  utilityModels?: Pick<UtilityModels, 'offer'>;
}

/**
 * GigaChat's chat models in VS Code's own Chat (the model picker, agent mode, other extensions'
 * `vscode.lm` requests), through the same client, key, certificates and proxies as the rest of the
 * extension. Each request is one round of the core's chat engine (core/chat/modelRound.ts), as
 * `@gigachat`'s are: tools become the service's functions (one call per reply, as the service makes
 * them; VS Code runs them), pictures are uploaded and attached, the oldest messages are left out
 * when the conversation outgrows the model, and token counts come from the service's tokenizer.
 */
export class GigaChatModelProvider extends Disposable implements vscode.LanguageModelChatProvider<GigaChatModelInformation> {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;
  /** The calls given out, for their `functions_state_id` when they come back in the history. */
  private readonly calls = new CallStates();
  private readonly counter: TokenCounter;
  private uploads?: { client: ServiceClient; files: FileUploads };

  constructor(private readonly services: ModelProviderServices) {
    super();
    const { clients, keys, log } = services;
    this.counter = new TokenCounter(async (input, options) => (await clients.get()).countTokens(input, { ...options, priority: 'background' }), log);
    this._register(keys.onDidChange(() => this.changed.fire()));
    this._register(
      services.settings.onDidChange((change) => {
        if (change.affects('model') || change.affects('modelTokenLimits') || change.callsFor('connection')) this.changed.fire();
      }),
    );
  }

  async provideLanguageModelChatInformation(options: vscode.PrepareLanguageModelChatModelOptions): Promise<GigaChatModelInformation[]> {
    const { keys, catalog, log } = this.services;
    // At once, from what is known: the Chat view chooses its model when it opens, and a list that
    // arrives after that leaves it with none. The account's list follows, and replaces this one.
    const known = catalog.known();
    if (!(await keys.has())) {
      // Listing silently (the picker opening) must not pop up a key prompt; "Manage" asks. Without a
      // key the configured model is still listed: VS Code's Chat then reaches @gigachat, which says
      // what is missing with its buttons, rather than VS Code's bare "Language model unavailable".
      if (options.silent || !(await this.services.setAuthorizationKey()))
        return known.map((id) => modelInformation(id, this.services.settings.get('modelTokenLimits')));
    }
    catalog.list().then(
      (models) => models.join() !== known.join() && this.changed.fire(),
      (error: unknown) => log.warn(`GigaChat models could not be listed for VS Code's Chat: ${messageOf(error)}`),
    );
    return known.map((id) => modelInformation(id, this.services.settings.get('modelTokenLimits')));
  }

  async provideLanguageModelChatResponse(
    model: GigaChatModelInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const { log } = this.services;
    if (fromVsCodeChat(options))
      void this.services.utilityModels?.offer(model.id).catch((error: unknown) => log.warn(`The offer of utility models failed: ${messageOf(error)}`));
    // A model listed without a key (see above), asked by VS Code's agent or another extension.
    if (!(await this.services.keys.has())) throw vscode.LanguageModelError.NoPermissions(noKeyMessage());
    const cancellation = abortSignalOf(token);
    const { signal } = cancellation;
    try {
      const client = await this.services.clients.get();
      const round = await askModel(
        readConversation(messages),
        {
          model: model.id,
          instructions: systemOption(options.modelOptions),
          tools: readTools(options.tools),
          toolMode: options.toolMode === vscode.LanguageModelChatToolMode.Required ? 'required' : 'auto',
          options: { ...requestOptions(options.modelOptions), ...reasoningOption(model.id, this.services.settings.settings().reasoningEffort) },
          // `modelOptions.webSearch`: the service's search, and reading the pages the question names.
          webSearch: options.modelOptions?.webSearch === true,
        },
        { client, texts: roundTexts(), calls: this.calls, attach: (conversation) => this.attach(client, conversation, signal) },
        // No thinking: VS Code's stable API has no part for it, and in another agent's answer it would read as the answer.
        { onText: (text) => progress.report(new vscode.LanguageModelTextPart(text)) },
        signal,
      );
      logRound(log, "VS Code's Chat", model.id, round);
      for (const call of round.calls) progress.report(new vscode.LanguageModelToolCallPart(call.callId, call.toolName, call.input));
    } catch (error) {
      throw languageModelError(error, log);
    } finally {
      cancellation.dispose();
    }
  }

  async provideTokenCount(model: GigaChatModelInformation, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    // Not cancelled with the caller: the count is cached and the next prompt asks for the same text.
    const plain = typeof text === 'string' ? text : messageText(readConversation([text])[0]);
    return this.counter.tokens(model.id, plain);
  }

  /** Uploads the conversation's pictures not uploaded yet, and attaches them; the oldest beyond a request's limits stay out. */
  private async attach(client: ServiceClient, conversation: ServiceConversation, signal: AbortSignal): Promise<void> {
    if (this.uploads?.client !== client) this.uploads = { client, files: new FileUploads((bytes, options) => client.uploadFile(bytes, options)) };
    const { leftOut } = await this.uploads.files.attach(conversation, signal);
    if (leftOut > 0)
      this.services.log.info(`The ${leftOut} earliest files of the conversation were not sent: a request takes at most 10 files, under 20 MB in all.`);
  }
}

/**
 * Whether VS Code's own Chat (its agent, inline chat, Source Control) asked, rather than another
 * extension (VS Code names the extension that asked, where it says; its own features are `core` or
 * the built-in Copilot extension). `@gigachat` asks the service itself, not through here.
 */
function fromVsCodeChat(options: vscode.ProvideLanguageModelChatResponseOptions): boolean {
  const initiator = (options as { requestInitiator?: unknown }).requestInitiator;
  return typeof initiator !== 'string' || initiator === 'core' || /^(github\.copilot|vscode\.)/i.test(initiator);
}

/**
 * The model options the service understands (`temperature`, `top_p`, `max_tokens`,
 * `repetition_penalty`) when they are numbers, and `system`: instructions sent as the system
 * message (VS Code's System role is not in its stable API; @gigachat gives its instructions so).
 */
function requestOptions(modelOptions: { readonly [name: string]: unknown } | undefined): Partial<ChatRequest> {
  const options: Partial<ChatRequest> = {};
  for (const key of ['temperature', 'top_p', 'max_tokens', 'repetition_penalty'] as const) {
    const value = modelOptions?.[key];
    if (typeof value === 'number' && Number.isFinite(value)) options[key] = value;
  }
  return options;
}

/** `modelOptions.system`: instructions for the system message (@gigachat's), or '' when none are given. */
function systemOption(modelOptions: { readonly [name: string]: unknown } | undefined): string {
  return typeof modelOptions?.system === 'string' ? modelOptions.system : '';
}

/** What a caller of a GigaChat model is told while no key is set. */
function noKeyMessage(): string {
  return vscode.l10n.t('GigaChat needs your authorization key: run "GigaChat: Set Authorization Key" and ask again.');
}
