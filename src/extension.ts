import * as vscode from 'vscode';
import type { ServiceClient } from './core';
import { ChatController } from './host/chat/chatController';
import { ChatViewProvider } from './host/chat/chatViewProvider';
import { ConversationStore } from './host/chat/conversationStore';
import { ImageStore } from './host/chat/imageStore';
import { ModelCatalog } from './host/chat/modelCatalog';
import { ClientProvider } from './host/clientProvider';
import { registerConnectionCheck } from './host/connectionCheck/checkConnectionCommand';
import { ExplainCodeActionProvider, explainPrompt } from './host/explain';
import { clearAuthorizationKey, setAuthorizationKey } from './host/keyCommands';
import { Log } from './host/log';
import { KeyStore } from './host/secrets';
import { registerSemanticSearch } from './host/search/registerSearch';
import { createTrustedRoot, registerCertificateCommands } from './host/trust/registerTrust';

/** What other extensions get from `vscode.extensions.getExtension('gigachat-vscode.gigachat').exports`. */
export interface GigaChatApi {
  /** The configured service client (token, retries, certificates handled). */
  getClient(): Promise<ServiceClient>;
  /** Opens the chat and sends `text` as a new turn. */
  ask(text: string): Promise<void>;
}

/** Builds the services and registers each feature; nothing connects until the first request. */
export function activate(context: vscode.ExtensionContext): GigaChatApi | undefined {
  const log = new Log();
  context.subscriptions.push(log);
  try {
    const keys = new KeyStore(context.secrets);
    const trustedRoot = createTrustedRoot(context, log);
    const clients = new ClientProvider(keys, trustedRoot, log, context.extension.packageJSON.version);
    const chat = createChatView(context, clients, keys, log);
    registerKeyCommands(context, keys, clients, log);
    registerCertificateCommands(context, trustedRoot, clients, log);
    registerConnectionCheck(context, clients, trustedRoot, log);
    registerExplain(context, chat);
    registerSemanticSearch(context, { clients, keys, log, ask: (prompt) => chat.ask(prompt) });
    context.subscriptions.push(clients);
    return { getClient: () => clients.get(), ask: (text) => chat.ask({ text }) };
  } catch (error) {
    // VS Code does not tell the user when an extension fails to activate: do it here.
    log.error(`Activation failed: ${(error as Error).stack ?? error}`);
    void vscode.window.showErrorMessage(vscode.l10n.t('GigaChat could not start: {0}', (error as Error).message));
    return undefined;
  }
}

function createChatView(context: vscode.ExtensionContext, clients: ClientProvider, keys: KeyStore, log: Log): ChatViewProvider {
  const images = new ImageStore(vscode.Uri.joinPath(context.storageUri ?? context.globalStorageUri, 'images'));
  const controller = new ChatController(clients, new ConversationStore(context.workspaceState), images, log);
  const models = new ModelCatalog(clients, log);
  const view = new ChatViewProvider(context.extensionUri, controller, models, images, keys, context.workspaceState, log);
  context.subscriptions.push(
    view,
    vscode.window.registerWebviewViewProvider(ChatViewProvider.viewId, view, { webviewOptions: { retainContextWhenHidden: true } }),
    vscode.commands.registerCommand('gigachat.openChat', () => view.reveal()),
    vscode.commands.registerCommand('gigachat.newChat', () => view.newChat()),
  );
  return view;
}

function registerKeyCommands(context: vscode.ExtensionContext, keys: KeyStore, clients: ClientProvider, log: Log): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('gigachat.setAuthorizationKey', () => setAuthorizationKey(keys, clients, log)),
    vscode.commands.registerCommand('gigachat.clearAuthorizationKey', () => clearAuthorizationKey(keys)),
  );
}

function registerExplain(context: vscode.ExtensionContext, chat: ChatViewProvider): void {
  context.subscriptions.push(
    vscode.commands.registerTextEditorCommand('gigachat.explainSelection', (editor) => {
      if (editor.selection.isEmpty) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Select some code to explain first.'));
        return;
      }
      return chat.ask(explainPrompt(editor.document, editor.selection));
    }),
    vscode.languages.registerCodeActionsProvider({ scheme: '*' }, new ExplainCodeActionProvider(), { providedCodeActionKinds: ExplainCodeActionProvider.kinds }),
  );
}

export function deactivate(): void {}
