import * as vscode from 'vscode';
import { ChatController } from './chat/chatController';
import { ChatViewProvider } from './chat/chatViewProvider';
import { ConversationStore } from './chat/conversationStore';
import { ImageStore } from './chat/imageStore';
import { ModelCatalog } from './chat/modelCatalog';
import { ClientProvider } from './clientProvider';
import { clearAuthorizationKey, setAuthorizationKey } from './keyCommands';
import { Log } from './log';
import { KeyStore } from './secrets';

/**
 * What the features share, built once, the first time a command or view needs any of it. This
 * module is the entry point of its own bundle (dist/services.js, loaded by servicesLoader.ts), so
 * none of it (the service client, the chat, the zod schemas) is loaded at activation.
 */
export interface Services {
  readonly log: Log;
  readonly keys: KeyStore;
  readonly clients: ClientProvider;
  readonly chat: ChatViewProvider;
  setAuthorizationKey(): Promise<boolean>;
  clearAuthorizationKey(): Promise<void>;
}

export function createServices(context: vscode.ExtensionContext): Services {
  const log = new Log();
  context.subscriptions.push(log);
  const keys = new KeyStore(context.secrets);
  const clients = new ClientProvider(keys, log, context.extension.packageJSON.version);
  const images = new ImageStore(vscode.Uri.joinPath(context.storageUri ?? context.globalStorageUri, 'images'));
  const controller = new ChatController(clients, new ConversationStore(context.workspaceState), images, log);
  const models = new ModelCatalog(clients, log);
  const chat = new ChatViewProvider(context.extensionUri, controller, models, images, keys, context.workspaceState, log);
  context.subscriptions.push(chat, clients);
  return {
    log,
    keys,
    clients,
    chat,
    setAuthorizationKey: () => setAuthorizationKey(keys, clients, log),
    clearAuthorizationKey: () => clearAuthorizationKey(keys),
  };
}
