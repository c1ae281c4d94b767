import * as vscode from 'vscode';
import { ReasoningDocuments } from './agent/reasoningDocuments';
import { LastAnswerView } from './chat/lastAnswerView';
import { InlineCompletions } from './completion/inlineCompletions';
import { ServerKeyStore } from './completion/serverKey';
import { ChatEngine, SavedConversations } from '../core';
import { chatHost, warnSaveFailing } from './chat/chatHost';
import { ChatViewProvider } from './chat/chatViewProvider';
import { panelCodebase } from './chat/panelCodebase';
import { ConversationStore } from './chat/conversationStore';
import { ImageStore } from './chat/imageStore';
import { PendingFiles } from './chat/pendingFiles';
import { ModelCatalog } from './chat/modelCatalog';
import { ClientProvider } from './clientProvider';
import { codeCommands, type CodeCommands } from './explain/codeCommands';
import { CommitMessages } from './scm/commitMessageCommand';
import { ConnectionCheck } from './connectionCheck/checkConnectionCommand';
import { provideErrorFixes } from './errors/errorActions';
import { clearAuthorizationKey, setAuthorizationKey } from './key/keyCommands';
import { Log } from './log';
import { SemanticSearch, type SemanticSearchCommands } from './search/semanticSearch';
import { workspaceCodebase } from './search/codebaseSource';
import { GigaChatParticipant } from './agent/gigachatParticipant';
import { GigaChatModelProvider } from './lm/chatModelProvider';
import { UtilityModels } from './lm/utilityModels';
import { AppliedEdits } from './tools/appliedEdits';
import { ChangeReviews } from './edits/changeReviews';
import { TurnUndo } from './agent/undoTurnCommand';
import { EditFileTool } from './tools/editFileTool';
import { ChangeReview } from './scm/reviewChangesCommand';
import { FindFilesTool } from './tools/findFilesTool';
import { ReadFileTool } from './tools/readFileTool';
import { SearchTool } from './tools/searchTool';
import type { OwnToolKey } from './chatNames';
import { KeyStore } from './key/secrets';
import { showTokenBalance } from './key/tokenBalance';
import { certificateActions, createTrustedRoot, type CertificateActions } from './trust/registerTrust';
import { describeErrorsWith } from './errors/errorDescription';
import type { SettingsReader } from './settings/settingsReader';
import { VsCodeSettings } from './settings/vscodeSettings';

/**
 * What the features share, built once, the first time a command or view needs any of it. This
 * module is the entry point of its own bundle (dist/services.js, loaded by servicesLoader.ts), so
 * none of it (the service client, the chat, the zod schemas) is loaded at activation.
 */
export interface Services {
  readonly log: Log;
  /** The extension's settings, read fresh at each call; the one way features read them. */
  readonly settings: SettingsReader;
  readonly keys: KeyStore;
  readonly clients: ClientProvider;
  readonly chat: ChatViewProvider;
  readonly code: CodeCommands;
  readonly certificates: CertificateActions;
  readonly search: SemanticSearchCommands;
  /** GigaChat's models in VS Code's own Chat. */
  readonly languageModels: GigaChatModelProvider;
  /** VS Code's utility models (titles, commit messages, rename suggestions) set to GigaChat's, after a yes. */
  readonly utilityModels: UtilityModels;
  /** `@gigachat` in VS Code's own Chat. */
  readonly participant: GigaChatParticipant;
  /** The changes agents propose, each asked about with its diff. */
  readonly changes: ChangeReviews;
  /** Undo This Turn under an @gigachat answer that changed files. */
  readonly turnUndo: TurnUndo;
  /** The chat's last answer in a read-only editor (for screen readers). */
  readonly lastAnswer: LastAnswerView;
  /** @gigachat's reasoning, opened from its answers. */
  readonly reasoning: ReasoningDocuments;
  /** *Review Changes*: the model's findings on a change, as comments and Problems entries. */
  readonly review: ChangeReview;
  /** GigaChat's code in grey at the cursor, and its status bar item. */
  readonly completions: InlineCompletions;
  /** GigaChat: Write Commit Message, into a repository's Source Control input box. */
  readonly commitMessages: CommitMessages;
  /** The language model tools this extension contributes, by their key in OWN_TOOLS. */
  readonly tools: Record<OwnToolKey, vscode.LanguageModelTool<unknown>>;
  setAuthorizationKey(): Promise<boolean>;
  clearAuthorizationKey(): Promise<void>;
  checkConnection(): Promise<unknown>;
  showTokenBalance(): Promise<void>;
}

export function createServices(context: vscode.ExtensionContext): Services {
  const log = new Log();
  const settings = new VsCodeSettings();
  describeErrorsWith(settings);
  const keys = new KeyStore(context.secrets);
  const trustedRoot = createTrustedRoot(context, log);
  const version = (context.extension.packageJSON as { version: string }).version;
  const clients = new ClientProvider(settings, keys, trustedRoot, log, version, vscode.Uri.joinPath(context.globalStorageUri, 'streams').fsPath);
  // A window without a folder keeps its pictures where every such window does: none of them may clean it up.
  const storage = context.storageUri ?? context.globalStorageUri;
  const images = new ImageStore(vscode.Uri.joinPath(storage, 'images'), { shared: !context.storageUri });
  const conversations = new ConversationStore(context.workspaceState, vscode.Uri.joinPath(storage, 'conversations').fsPath);
  const pendingFiles = new PendingFiles(context.workspaceState, images);
  const saved = new SavedConversations(
    conversations,
    images,
    log,
    () => warnSaveFailing(log),
    () => pendingFiles.ids,
  );
  // Codebase context searches through it; it opens the chat (`ask`) only once the view exists.
  const search = new SemanticSearch(context, { clients, settings, keys, log, ask: (prompt): Promise<void> => chat.ask(prompt) });
  const engine = new ChatEngine({ ...chatHost(clients, settings, images, log), codebase: panelCodebase(workspaceCodebase(search, settings)) }, saved);
  const models = new ModelCatalog(clients, settings, log);
  const chat: ChatViewProvider = new ChatViewProvider(context.extensionUri, engine, models, images, keys, context.workspaceState, log, pendingFiles);
  const check = new ConnectionCheck(clients, trustedRoot, log);
  context.subscriptions.push(log, settings, trustedRoot, chat, clients, check, search);
  const certificates = certificateActions(context, trustedRoot, clients, settings, log);
  const setKey = () => setAuthorizationKey({ keys, clients, settings, log });
  const edits = new AppliedEdits();
  const changes = new ChangeReviews();
  const turnUndo = new TurnUndo(changes);
  const reasoning = new ReasoningDocuments();
  const lastAnswer = new LastAnswerView(chat);
  const serverKey = new ServerKeyStore(context.secrets);
  const completions = new InlineCompletions(clients, settings, keys, serverKey, trustedRoot, log);
  const review = new ChangeReview(clients, settings, changes, log);
  context.subscriptions.push(changes, reasoning, lastAnswer, serverKey, completions, review);
  const utilityModels = new UtilityModels({ state: context.globalState, log, models: () => models.list() });
  const languageModels = new GigaChatModelProvider({ clients, catalog: models, keys, settings, log, setAuthorizationKey: setKey, utilityModels });
  context.subscriptions.push(languageModels);
  provideErrorFixes({
    ...certificates,
    setAuthorizationKey: setKey,
    useVisionModel: () => models.selectVisionModel(),
    allowIndexing: search.allowIndexing,
    checkConnection: () => check.run(),
  });
  return {
    log,
    settings,
    keys,
    clients,
    chat,
    code: codeCommands(chat, log),
    setAuthorizationKey: setKey,
    clearAuthorizationKey: () => clearAuthorizationKey(keys),
    certificates,
    checkConnection: () => check.run(),
    showTokenBalance: () => showTokenBalance(clients, settings, log),
    search,
    languageModels,
    utilityModels,
    changes,
    turnUndo,
    reasoning,
    lastAnswer,
    completions,
    commitMessages: new CommitMessages({ clients, settings, log }),
    review,
    participant: new GigaChatParticipant({ clients, search, edits, changes, undo: turnUndo, keys, settings, log }),
    tools: {
      readFile: new ReadFileTool(),
      findFiles: new FindFilesTool(),
      editFile: new EditFileTool(changes, edits),
      searchWorkspace: new SearchTool((query, k, signal) => search.searchQuietly(query, k, signal)),
    },
  };
}
