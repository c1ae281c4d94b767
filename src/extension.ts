import * as vscode from 'vscode';
import type { ServiceClient } from './core';
import { CHAT_VIEW_ID } from './host/chat/chatViewId';
import { ExplainCodeActionProvider } from './host/explain/explainCodeAction';
import { registerFirstRun, WALKTHROUGH_ID } from './host/firstRun';
import { showHelp } from './host/help/helpPages';
import { registerCompletions } from './host/completion/registerCompletions';
import { registerCommands, type CommandHandlers } from './host/registerCommands';
import { registerVsCodeChat } from './host/registerVsCodeChat';
import { resumeUnfinishedIndex } from './host/search/unfinishedIndex';
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

/** What deactivation must finish before the extension host stops (VS Code waits for the promise, a few seconds at most). */
let whenDeactivated: (() => Promise<void> | undefined) | undefined;

/**
 * Registers each feature and returns the public API. Activation loads nothing else: each command
 * and view reaches the code behind it through `services`, loaded on first use (see
 * host/servicesLoader.ts). A new feature gets a `register…(context, services)` of its own, and
 * keeps its imports here to what registering needs.
 */
export function activate(context: vscode.ExtensionContext): GigaChatApi {
  const services = servicesLoader(context);
  whenDeactivated = () => services.loaded()?.search.saveProgress();
  resumeUnfinishedIndex(context.workspaceState, () => services().search);
  registerChatView(context, services);
  registerVsCodeChat(context, services);
  registerCompletions(context, services);
  registerFirstRun(context);
  context.subscriptions.push(
    vscode.languages.registerCodeActionsProvider({ scheme: '*' }, new ExplainCodeActionProvider(), {
      providedCodeActionKinds: ExplainCodeActionProvider.kinds,
    }),
  );
  registerCommands(context, {
    ...chatCommands(services),
    ...keyCommands(services),
    ...selectionCommands(services),
    ...certificateCommands(services),
    ...searchCommands(services),
    ...changeCommands(services),
    ...reviewCommands(services),
    help: (page?: unknown) => showHelp(context.extensionUri, page),
    openSettings: () => vscode.commands.executeCommand('workbench.action.openSettings', '@ext:gigachat-vscode.gigachat'),
    openWalkthrough: () => vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false),
    showReasoning: (text?: unknown) => services().reasoning.show(text),
    completionsMenu: () => services().completions.status.menu(),
    setCompletionServerKey: () => services().completions.serverKey.ask(),
    useForUtilityModels: () => services().utilityModels.useGigaChat(),
    stopUtilityModels: () => services().utilityModels.stopUsingGigaChat(),
    // From the Source Control menus: the repository, then (the input box's menu) its groups and a cancellation token.
    writeCommitMessage: (repository?: unknown, _groups?: unknown, token?: unknown) => services().commitMessages.write(repository, token),
  });
  return {
    getClient: () => Promise.resolve(requestsOnly(() => services().clients.get())),
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

function registerChatView(context: vscode.ExtensionContext, services: ServicesLoader): void {
  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider(
      CHAT_VIEW_ID,
      { resolveWebviewView: (view) => services().chat.resolveWebviewView(view) },
      { webviewOptions: { retainContextWhenHidden: true } },
    ),
  );
}

function chatCommands(services: ServicesLoader): CommandHandlers<'openChat' | 'newChat' | 'showChatHistory' | 'exportChat' | 'showLastAnswer'> {
  return {
    openChat: () => services().chat.openChat(),
    newChat: () => services().chat.newChat(),
    showChatHistory: () => services().chat.showHistory(),
    exportChat: () => services().chat.exportChat(),
    showLastAnswer: () => services().lastAnswer.show(),
  };
}

function keyCommands(services: ServicesLoader): CommandHandlers<'setAuthorizationKey' | 'clearAuthorizationKey' | 'showTokenBalance'> {
  return {
    setAuthorizationKey: () => services().setAuthorizationKey(),
    clearAuthorizationKey: () => services().clearAuthorizationKey(),
    showTokenBalance: () => services().showTokenBalance(),
  };
}

function selectionCommands(services: ServicesLoader): CommandHandlers<'explainSelection' | 'addSelectionToChat' | 'addFileToChat'> {
  return {
    explainSelection: { textEditor: (editor) => services().code.explainSelection(editor) },
    addSelectionToChat: { textEditor: (editor) => services().code.addSelectionToChat(editor) },
    addFileToChat: (clicked?: unknown, selected?: unknown) => services().code.addFileToChat(clicked, selected),
  };
}

function certificateCommands(
  services: ServicesLoader,
): CommandHandlers<'trustRootCertificate' | 'addTrustedCertificate' | 'certificateHelp' | 'checkConnection'> {
  return {
    trustRootCertificate: () => services().certificates.trustRootCertificate(),
    addTrustedCertificate: () => services().certificates.addTrustedCertificate(),
    certificateHelp: () => services().certificates.certificateHelp(),
    checkConnection: () => services().checkConnection(),
  };
}

function searchCommands(services: ServicesLoader): CommandHandlers<'semanticSearch' | 'rebuildSearchIndex' | 'clearSearchIndex'> {
  return {
    semanticSearch: (query?: unknown) => services().search.search(query),
    rebuildSearchIndex: () => services().search.rebuild(),
    clearSearchIndex: () => services().search.clear(),
  };
}

/** The answers to a change an agent proposes (the diff editor's title buttons, the palette). */
function changeCommands(services: ServicesLoader): CommandHandlers<'applyChange' | 'discardChange' | 'undoAgentTurn'> {
  return {
    applyChange: (proposal?: unknown) => services().changes.answer('apply', proposal),
    discardChange: (proposal?: unknown) => services().changes.answer('discard', proposal),
    undoAgentTurn: (turn?: unknown) => services().turnUndo.undo(turn),
  };
}

/** Writes what indexing embedded and is not on disk yet: a reload or close in the middle of indexing loses only the batches in flight. */
export function deactivate(): Promise<void> | undefined {
  return whenDeactivated?.();
}

function reviewCommands(services: ServicesLoader): CommandHandlers<'reviewChanges' | 'fixReviewFinding' | 'dismissReviewFinding'> {
  return {
    reviewChanges: (repository?: unknown) => services().review.run(repository),
    fixReviewFinding: (finding?: unknown) => services().review.fix(finding),
    dismissReviewFinding: (finding?: unknown) => services().review.dismiss(finding),
  };
}
