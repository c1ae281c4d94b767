import * as vscode from 'vscode';
import { systemClock, type ChatEngine, type Prompt } from '../../core';
import { mentionsCodebase } from '../../shared/codebaseTag';
import { MAX_ATTACHED_FILES, MAX_ATTACHMENTS, type HostMessage, type ViewMessage } from '../../shared/protocol';
import { mentionsWeb } from '../../shared/webTag';
import { webviewStrings } from '../../shared/strings';
import { Disposable, disposeAll } from '../dispose';
import { offerErrorActions } from '../errors/errorActions';
import type { Log } from '../log';
import type { KeyStore } from '../key/secrets';
import type { CodeExcerpt } from '../explain/codeExcerpts';
import { PendingAttachments } from './attachments';
import { ChatViewAdapter, isConversationRequest } from './chatViewAdapter';
import { ChatDraft } from './chatDraft';
import { CHAT_VIEW_ID } from './chatViewId';
import { trackLastTextEditor } from './codeBlockActions';
import type { ImageStore } from './imageStore';
import type { ModelCatalog } from './modelCatalog';
import { conversationMarkdown } from './conversationMarkdown';
import { fitHostMessage } from './fitMessage';
import { FileIntake } from './fileIntake';
import type { PendingFiles } from './pendingFiles';
import { parseViewMessage } from './viewMessages';
import { answerViewRequest, setChatFocused, type ChatViewParts } from './viewRequests';
import { chatHtml } from './webviewHtml';
import { countMessage } from '../countMessage';
import { messageOf } from '../../core';
import { notify } from '../notify';

/**
 * The chat side panel: the webview, and what it asks of VS Code. The conversation in it is the
 * chat engine's (src/core/chat), reached through the view adapter (chatViewAdapter.ts) only.
 */
export class ChatViewProvider extends Disposable implements vscode.WebviewViewProvider {
  private view?: vscode.WebviewView;
  /** Prompts that arrived before the view existed (explain selection opened it), oldest first. */
  private readonly queued: Prompt[] = [];
  private readonly attachments: PendingAttachments;
  private readonly intake: FileIntake;
  private readonly draft: ChatDraft;
  /** What the view's requests act on (see viewRequests.ts). */
  private readonly parts: ChatViewParts;
  /** The conversation: the view's requests about it go to the engine, and its events come back as messages. */
  private readonly adapter: ChatViewAdapter;

  constructor(
    private readonly extensionUri: vscode.Uri,
    engine: ChatEngine,
    private readonly models: ModelCatalog,
    private readonly images: ImageStore,
    private readonly keys: KeyStore,
    workspaceState: vscode.Memento,
    private readonly log: Log,
    files: PendingFiles,
  ) {
    super();
    this.attachments = new PendingAttachments(workspaceState);
    this.intake = new FileIntake(files);
    this.draft = new ChatDraft(workspaceState);
    this.adapter = new ChatViewAdapter(engine, images, systemClock, (message) => this.compose(message));
    this.parts = {
      adapter: this.adapter,
      models,
      images,
      log,
      attachments: this.attachments,
      files,
      intake: this.intake,
      draft: this.draft,
      takeQueued: () => this.queued.splice(0),
      post: (message) => this.post(message),
      sendState: () => this.sendState(),
      postAttachments: (refused) => this.postAttachments(refused),
      newChat: () => this.newChat(),
    };
    this._register(trackLastTextEditor());
    this._register(keys.onDidChange(() => void this.keyChanged()));
    this._register(models.onDidChange(() => void this.sendModels()));
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    view.webview.options = {
      enableScripts: true,
      // The view's script and stylesheet, and the pictures the model drew (the view loads them itself).
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist'), vscode.Uri.joinPath(this.extensionUri, 'media'), this.images.folder],
    };
    this.images.showIn(view.webview);
    view.webview.html = chatHtml(view.webview, this.extensionUri);
    this.adapter.attach({ post: (message) => this.post(message), redraw: () => this.sendState() });
    // This view's listeners go with it: VS Code resolves a new view each time the panel is opened again.
    const received = view.webview.onDidReceiveMessage((raw) => this.receive(raw));
    const closed = view.onDidDispose(() => {
      this.view = undefined;
      void setChatFocused(false);
      disposeAll([received, closed]);
    });
  }

  /** Opens the view and sends a prompt as a new turn (explain selection, search results). */
  async ask(prompt: Prompt): Promise<void> {
    await this.reveal();
    if (this.view) await this.adapter.send(prompt);
    else this.queued.push(prompt); // sent once the view is ready
  }

  /**
   * Code for the next message (Add Selection to GigaChat, Add File to GigaChat): it waits above the input,
   * as chips, for the question the user types about it; the view opens with the cursor in the input.
   */
  async attach(excerpts: readonly CodeExcerpt[]): Promise<void> {
    const outcomes = [];
    for (const excerpt of excerpts) outcomes.push(await this.attachments.add(excerpt));
    if (outcomes.includes('full')) {
      void notify(
        'warning',
        countMessage(
          'At most {0|# piece|# pieces} of code can be attached to one message. Send the message, or remove a piece from it first.',
          MAX_ATTACHMENTS,
        ),
      );
    }
    await this.postAttachments();
    await this.openChat();
  }

  /** Starts a new conversation (the view's title-bar button). */
  async newChat(): Promise<void> {
    await this.adapter.newChat();
    await this.sendState();
    this.post({ type: 'focusInput' });
  }

  /** Show Chat History (the view's title bar): the view, with its list of chats open. */
  async showHistory(): Promise<void> {
    await this.reveal();
    this.post({ type: 'openHistory' });
  }

  /** Opens the conversation shown in the view as a Markdown document (Export Chat as Markdown). */
  async exportChat(): Promise<void> {
    const conversation = await this.adapter.current();
    if (conversation.turns.length === 0) {
      void notify('info', vscode.l10n.t('This chat is empty: there is nothing to export yet.'));
      return;
    }
    const content = conversationMarkdown(conversation, {
      you: vscode.l10n.t('You'),
      assistant: vscode.l10n.t('GigaChat'),
      context: (label) => vscode.l10n.t('Context: {0}', label),
      picture: vscode.l10n.t('Generated image'),
      stopped: vscode.l10n.t('Stopped'),
      failed: (reason) => vscode.l10n.t('The reply failed: {0}', reason),
      shortened: (count) => countMessage(webviewStrings.contextShortened, count),
      sources: vscode.l10n.t(webviewStrings.webSources),
    });
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content });
    await vscode.window.showTextDocument(document, { preview: false });
  }

  /** The chat's last answer with any text, as the user reads it (markdown), for GigaChat: Show Last Answer as Plain Text. */
  async lastAnswer(): Promise<string | undefined> {
    const { turns } = await this.adapter.current();
    const answer = [...turns].reverse().find((turn) => turn.role === 'assistant' && turn.content.trim() !== '');
    return answer && this.adapter.replyText(answer.id);
  }

  async reveal(): Promise<void> {
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
  }

  /** Open Chat (and its shortcut): the view, with the cursor in its input, ready to type. */
  async openChat(): Promise<void> {
    await this.reveal();
    this.post({ type: 'focusInput' });
  }

  private async receive(raw: unknown): Promise<void> {
    const parsed = parseViewMessage(raw);
    if (!parsed.ok) {
      this.log.warn(parsed.logLine);
      return;
    }
    try {
      const { message } = parsed;
      await (isConversationRequest(message) ? this.adapter.receive(message) : answerViewRequest(message, this.parts));
    } catch (error) {
      // What the view asked of VS Code failed (settings that cannot be written, a folder that
      // refuses a file…): the user hears of it, and a picked model that was not saved is unpicked.
      const reason = messageOf(error);
      this.log.error(`Chat view request ${parsed.message.type} failed: ${reason}`);
      if (parsed.message.type === 'selectModel') void this.sendModels();
      await offerErrorActions('error', vscode.l10n.t('GigaChat could not do that: {0}', reason), ['openLogs'], this.log);
    }
  }

  private async sendState(): Promise<void> {
    const [conversationNow, hasKey, pictureChips] = await Promise.all([this.adapter.prepareState(), this.keys.has(), this.intake.chips()]);
    // Taken right before posting: the reply being written is shown as far as it is now.
    const conversation = conversationNow();
    if (!conversation) return;
    this.post({
      type: 'state',
      ...conversation,
      hasKey,
      models: [this.models.selected()],
      model: this.models.selected(),
      ...this.draft.saved(),
      attachments: [...this.attachments.chips(), ...pictureChips],
    });
    void this.sendModels(); // the full list follows (cached after the first time)
  }

  private async keyChanged(): Promise<void> {
    this.post({ type: 'keyState', hasKey: await this.keys.has() });
    await this.sendModels();
  }

  private async sendModels(): Promise<void> {
    if (!this.view || !(await this.keys.has())) return;
    this.post({ type: 'models', models: await this.models.list(), model: this.models.selected() });
  }

  /** The chips of the next message, and why the files just refused were (`refused`: messages the view shows by the input). */
  private async postAttachments(refused: readonly string[] = []): Promise<void> {
    this.post({ type: 'attachments', attachments: [...this.attachments.chips(), ...(await this.intake.chips())] });
    if (refused.length > 0) this.post({ type: 'attachmentsRefused', messages: refused.slice(0, MAX_ATTACHED_FILES) });
  }

  /** What a message sent from the input asks: its text, the code and files attached to it, codebase context, the web. */
  private async compose(message: Extract<ViewMessage, { type: 'send' }>): Promise<Prompt> {
    const prompt = await this.attachments.prompt(message.text, message.attachmentIds);
    const files = await this.parts.files.take(message.attachmentIds);
    if (message.attachmentIds?.length) await this.postAttachments();
    const codebase = message.codebase === true || mentionsCodebase(message.text);
    const web = message.web === true || mentionsWeb(message.text);
    return { ...prompt, ...files, ...(codebase ? { codebase } : {}), ...(web ? { web } : {}) };
  }

  /** Posts a message, fitted to what the view accepts (see fitMessage.ts); what had to be changed is logged. */
  private post(message: HostMessage): void {
    if (!this.view) return;
    const fitted = fitHostMessage(message);
    for (const note of fitted.notes) this.log.warn(note);
    void this.view.webview.postMessage(fitted.message);
  }
}
