import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import {
  messageOf,
  messageText,
  modelReasons,
  readReplyText,
  replyWithOfferedCalls,
  FileUploads,
  toServiceConversation,
  toServiceFunctions,
  TokenCounter,
  webSearchTools,
  type ChatRequest,
  type ReplyTextNotes,
  type ServiceClient,
  type ServiceFunction,
} from '../../core';
import { abortSignalOf } from '../cancellation';
import type { ClientProvider } from '../clientProvider';
import type { SettingsReader } from '../settings/settingsReader';
import { REASONING_OPTION, reasoningPart } from './reasoningText';
import { Disposable } from '../dispose';
import type { Log } from '../log';
import type { KeyStore } from '../key/secrets';
import type { SettingTypes } from '../../shared/settings';
import type { ModelCatalog } from '../chat/modelCatalog';
import { languageModelError } from './languageModelError';
import { modelInformation, type GigaChatModelInformation } from './modelInformation';
import { readConversation, readTools } from './requestParts';
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

/** Tool calls remembered with the service's `functions_state_id`, for when they come back in the history. */
const MAX_REMEMBERED_CALLS = 500;

/**
 * GigaChat's chat models in VS Code's own Chat (the model picker, agent mode, other extensions'
 * `vscode.lm` requests), through the same client, key, certificates and proxies as the rest of the
 * extension. Tools become the service's functions (one call per reply, as the service makes them),
 * pictures are uploaded and attached, and token counts come from the service's tokenizer.
 */
export class GigaChatModelProvider extends Disposable implements vscode.LanguageModelChatProvider<GigaChatModelInformation> {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;
  private readonly stateIds = new Map<string, string>();
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
      const { functions, names } = toServiceFunctions(readTools(options.tools));
      const conversation = toServiceConversation(readConversation(messages), names, this.stateIds, systemOption(options.modelOptions));
      const { leftOut } = await this.uploadsFor(client).attach(conversation, signal);
      if (leftOut > 0) log.info(`The ${leftOut} earliest files of the conversation were not sent: a request takes at most 10 files, under 20 MB in all.`);
      const offered = functions.map((fn) => fn.name);
      const request: ChatRequest = {
        model: model.id,
        messages: conversation.messages,
        ...requestOptions(options.modelOptions),
        ...reasoningEffort(model.id, this.services.settings.get('reasoningEffort')),
        // `modelOptions.webSearch` (@gigachat's `/web`): the service's search, and reading the pages the question names.
        ...(options.modelOptions?.webSearch === true ? { builtInTools: webSearchTools(conversation.messages.at(-1)?.content ?? '') } : {}),
        ...(functions.length > 0 ? { functions, function_call: callMode(options.toolMode, functions) } : {}),
      };
      const showText = (text: string) => progress.report(new vscode.LanguageModelTextPart(text));
      // Only for a caller that asked for it (@gigachat): in any other agent's answer the thinking would read as the answer.
      const showReasoning = options.modelOptions?.[REASONING_OPTION] === true ? (text: string) => progress.report(reasoningPart(text)) : undefined;
      const { reply, toolName, dropped } = await replyWithOfferedCalls(
        (messages) => readReplyText(client.chatStream({ ...request, messages }, { signal }), replyNotes(), showText, showReasoning),
        conversation.messages,
        names,
        offered,
      );
      if (reply.usage) {
        const { prompt_tokens, completion_tokens, total_tokens, precached_prompt_tokens = 0 } = reply.usage;
        log.info(
          `VS Code's Chat, ${model.id}: ${total_tokens} tokens (${prompt_tokens} in, ${precached_prompt_tokens} of them cached; ${completion_tokens} out).`,
        );
      }
      for (const name of dropped) log.warn(`GigaChat called "${name}", a function the request did not offer: the call was not passed on.`);
      if (reply.functionCall && toolName) {
        const callId = `gigachat-call-${randomUUID()}`;
        if (reply.functionsStateId) this.remember(callId, reply.functionsStateId);
        progress.report(new vscode.LanguageModelToolCallPart(callId, toolName, reply.functionCall.arguments));
      } else if (dropped.length > 0 && !reply.content) {
        showText(vscode.l10n.t('GigaChat asked for a tool it was not offered ({0}); nothing was run.', dropped.at(-1)!));
      }
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

  private uploadsFor(client: ServiceClient): FileUploads {
    if (this.uploads?.client !== client) this.uploads = { client, files: new FileUploads((bytes, options) => client.uploadFile(bytes, options)) };
    return this.uploads.files;
  }

  private remember(callId: string, stateId: string): void {
    this.stateIds.set(callId, stateId);
    if (this.stateIds.size > MAX_REMEMBERED_CALLS) this.stateIds.delete(this.stateIds.keys().next().value as string);
  }
}

/**
 * Whether VS Code's own Chat (its agent, inline chat, Source Control) asked, rather than @gigachat
 * (which marks its requests) or another extension (VS Code names the extension that asked, where it
 * says; its own features are `core` or the built-in Copilot extension).
 */
function fromVsCodeChat(options: vscode.ProvideLanguageModelChatResponseOptions): boolean {
  if (options.modelOptions?.[REASONING_OPTION] === true) return false;
  const initiator = (options as { requestInitiator?: unknown }).requestInitiator;
  return typeof initiator !== 'string' || initiator === 'core' || /^(github\.copilot|vscode\.)/i.test(initiator);
}

/** In place of a picture the model drew (the API has no way to return pictures), and the heading of a web answer's sources. */
function replyNotes(): ReplyTextNotes {
  return {
    picture: `_${vscode.l10n.t("GigaChat drew a picture here; VS Code's Chat cannot show it. Ask in the GigaChat panel to see pictures.")}_`,
    sources: vscode.l10n.t('Sources'),
  };
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

/** The effort the settings ask of a model that reasons before answering. */
function reasoningEffort(model: string, effort: SettingTypes['reasoningEffort']): Partial<ChatRequest> {
  return effort && modelReasons(model) ? { reasoningEffort: effort } : {};
}

/** `modelOptions.system`: instructions for the system message (@gigachat's), or '' when none are given. */
function systemOption(modelOptions: { readonly [name: string]: unknown } | undefined): string {
  return typeof modelOptions?.system === 'string' ? modelOptions.system : '';
}

/**
 * "Required" forces the one tool there is; with several the service has no "any of them" mode, so
 * the model decides (it is told in the request which tools there are).
 */
function callMode(mode: vscode.LanguageModelChatToolMode, functions: readonly ServiceFunction[]): ChatRequest['function_call'] {
  return mode === vscode.LanguageModelChatToolMode.Required && functions.length === 1 ? { name: functions[0].name } : 'auto';
}

/** What a caller of a GigaChat model is told while no key is set. */
function noKeyMessage(): string {
  return vscode.l10n.t('GigaChat needs your authorization key: run "GigaChat: Set Authorization Key" and ask again.');
}
