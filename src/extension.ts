import * as vscode from 'vscode';
import type { ServiceClient } from './core';
import { CHAT_VIEW_ID } from './host/chat/chatViewId';
import { ExplainCodeActionProvider } from './host/explainCodeAction';
import { servicesLoader, type ServicesLoader } from './host/servicesLoader';

/** The service's requests, as other extensions may make them (token, retries, certificates handled). */
export type GigaChatClient = Pick<ServiceClient, 'chat' | 'chatStream' | 'embeddings' | 'models' | 'countTokens' | 'balance' | 'fileContent'>;

/** What other extensions get from `vscode.extensions.getExtension('gigachat-vscode.gigachat').exports`. */
export interface GigaChatApi {
  /** Makes requests with the window's current connection settings. */
  getClient(): Promise<GigaChatClient>;
  /** Opens the chat and sends `text` as a new turn. */
  ask(text: string): Promise<void>;
}

/**
 * Registers each feature and returns the public API. Activation loads nothing else: each command
 * and view reaches the code behind it through `services`, loaded on first use (see
 * host/servicesLoader.ts). A new feature gets a `register…(context, services)` of its own, and
 * keeps its imports here to what registering needs.
 */
export function activate(context: vscode.ExtensionContext): GigaChatApi {
  const services = servicesLoader(context);
  registerChat(context, services);
  registerKeyCommands(context, services);
  registerSelectionCommands(context, services);
  registerCertificateCommands(context, services);
  registerSemanticSearch(context, services);
  return {
    getClient: async () => requestsOnly(() => services().clients.get()),
    ask: async (text) => services().chat.ask({ text }),
  };
}

/**
 * Requests only, each made with the client of the moment (the settings may have changed since).
 * Never the client itself: its options hold the key (TypeScript's `private` hides nothing at run
 * time), and its dispose() would break it for the whole window.
 */
function requestsOnly(current: () => Promise<ServiceClient>): GigaChatClient {
  return Object.freeze({
    chat: async (...args) => (await current()).chat(...args),
    chatStream: async function* (...args) {
      yield* (await current()).chatStream(...args);
    },
    embeddings: async (...args) => (await current()).embeddings(...args),
    models: async (...args) => (await current()).models(...args),
    countTokens: async (...args) => (await current()).countTokens(...args),
    balance: async (...args) => (await current()).balance(...args),
    fileContent: async (...args) => (await current()).fileContent(...args),
  } satisfies GigaChatClient);
}

function registerChat(context: vscode.ExtensionContext, services: ServicesLoader): void {
  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider(
      CHAT_VIEW_ID,
      { resolveWebviewView: (view) => services().chat.resolveWebviewView(view) },
      { webviewOptions: { retainContextWhenHidden: true } },
    ),
    vscode.commands.registerCommand('gigachat.openChat', () => services().chat.openChat()),
    vscode.commands.registerCommand('gigachat.newChat', () => services().chat.newChat()),
    vscode.commands.registerCommand('gigachat.exportChat', () => services().chat.exportChat()),
  );
}

function registerKeyCommands(context: vscode.ExtensionContext, services: ServicesLoader): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('gigachat.setAuthorizationKey', () => services().setAuthorizationKey()),
    vscode.commands.registerCommand('gigachat.clearAuthorizationKey', () => services().clearAuthorizationKey()),
    vscode.commands.registerCommand('gigachat.showTokenBalance', () => services().showTokenBalance()),
  );
}

function registerSelectionCommands(context: vscode.ExtensionContext, services: ServicesLoader): void {
  context.subscriptions.push(
    vscode.commands.registerTextEditorCommand('gigachat.explainSelection', (editor) => services().code.explainSelection(editor)),
    vscode.commands.registerTextEditorCommand('gigachat.addSelectionToChat', (editor) => services().code.addSelectionToChat(editor)),
    vscode.commands.registerCommand('gigachat.addFileToChat', (clicked?: unknown, selected?: unknown) => services().code.addFileToChat(clicked, selected)),
    vscode.languages.registerCodeActionsProvider({ scheme: '*' }, new ExplainCodeActionProvider(), { providedCodeActionKinds: ExplainCodeActionProvider.kinds }),
  );
}

function registerCertificateCommands(context: vscode.ExtensionContext, services: ServicesLoader): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('gigachat.trustRootCertificate', () => services().certificates.trustRootCertificate()),
    vscode.commands.registerCommand('gigachat.addTrustedCertificate', () => services().certificates.addTrustedCertificate()),
    vscode.commands.registerCommand('gigachat.certificateHelp', () => services().certificates.certificateHelp()),
    vscode.commands.registerCommand('gigachat.checkConnection', () => services().checkConnection()),
  );
}

function registerSemanticSearch(context: vscode.ExtensionContext, services: ServicesLoader): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('gigachat.semanticSearch', (query?: unknown) => services().search.search(query)),
    vscode.commands.registerCommand('gigachat.rebuildSearchIndex', () => services().search.rebuild()),
    vscode.commands.registerCommand('gigachat.clearSearchIndex', () => services().search.clear()),
  );
}

export function deactivate(): void {}
