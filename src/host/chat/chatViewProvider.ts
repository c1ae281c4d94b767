import * as vscode from 'vscode';
import * as z from 'zod';
import { MAX_ATTACHED_FILES, MAX_ATTACHMENTS, type HostMessage, type ViewMessage } from '../../shared/protocol';
import { mentionsCodebase } from '../../shared/codebaseTag';
import { mentionsWeb } from '../../shared/webTag';
import { webviewStrings } from '../../shared/strings';
import { Disposable, disposeAll } from '../dispose';
import { askErrorAction, runErrorAction } from '../errorActions';
import type { Log } from '../log';
import type { KeyStore } from '../secrets';
import type { CodeExcerpt } from '../codeExcerpts';
import { PendingAttachments } from './attachments';
import type { ChatController } from './chatController';
import type { Prompt } from './storedTurns';
import { CHAT_FOCUSED_CONTEXT, CHAT_VIEW_ID } from './chatViewId';
import { copyCode, insertCode, openCode, openLink, trackLastTextEditor } from './codeBlockActions';
import type { ImageStore } from './imageStore';
import type { ModelCatalog } from './modelCatalog';
import { continueInAgentMode } from './agentHandoff';
import { conversationMarkdown } from './conversationMarkdown';
import { fitHostMessage, viewId } from './fitMessage';
import { FileIntake } from './fileIntake';
import type { PendingFiles } from './pendingFiles';
import { openWorkspaceFile } from './openFile';
import { parseViewMessage } from './viewMessages';
import { chatHtml } from './webviewHtml';
import { countMessage } from '../countMessage';

const DRAFT_KEY = 'gigachat.draft';
const StoredDraft = z.union([z.string(), z.object({ text: z.string(), at: z.number() })]);

/** The chat side panel: draws the controller's conversation and carries the view's requests to it. */
export class ChatViewProvider extends Disposable implements vscode.WebviewViewProvider {
  private view?: vscode.WebviewView;
  /** Prompts that arrived before the view existed (explain selection opened it), oldest first. */
  private readonly queued: Prompt[] = [];
  private readonly attachments: PendingAttachments;
  private readonly intake: FileIntake;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly controller: ChatController,
    private readonly models: ModelCatalog,
    private readonly images: ImageStore,
    private readonly keys: KeyStore,
    private readonly workspaceState: vscode.Memento,
    private readonly log: Log,
    private readonly files: PendingFiles,
  ) {
    super();
    this.attachments = new PendingAttachments(workspaceState);
    this.intake = new FileIntake(files);
    this._register(trackLastTextEditor());
    this._register(keys.onDidChange(() => void this.keyChanged()));
    this._register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('gigachat')) void this.sendModels();
      }),
    );
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
    this.controller.attach(
      (message) => this.post(message),
      () => this.sendState(),
    );
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
    if (this.view) await this.controller.send(prompt);
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
      void vscode.window.showWarningMessage(
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
    await this.controller.newChat();
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
    const conversation = await this.controller.current();
    if (conversation.turns.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('This chat is empty: there is nothing to export yet.'));
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
    const { turns } = await this.controller.current();
    const answer = [...turns].reverse().find((turn) => turn.role === 'assistant' && turn.content.trim() !== '');
    return answer && this.controller.replyText(answer.id);
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
      await this.handle(parsed.message);
    } catch (error) {
      // What the view asked of VS Code failed (settings that cannot be written, a folder that
      // refuses a file…): the user hears of it, and a picked model that was not saved is unpicked.
      const reason = (error as Error).message;
      this.log.error(`Chat view request ${parsed.message.type} failed: ${reason}`);
      if (parsed.message.type === 'selectModel') void this.sendModels();
      if ((await askErrorAction(vscode.l10n.t('GigaChat could not do that: {0}', reason), ['openLogs'])) === 'openLogs') this.log.show();
    }
  }

  private async handle(message: ViewMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        await this.sendState();
        // Not awaited one by one: the first starts its reply, the rest wait for it (see ChatController.send).
        await Promise.all(this.queued.splice(0).map((prompt) => this.controller.send(prompt)));
        return;
      case 'focused':
        return setChatFocused(message.focused);
      case 'resync':
        // The view says so to the user; the log says what it could not read, and it is sent the chat again.
        this.log.warn(
          `The chat view could not read a message from the host (${safeWord(message.failed)}: ` +
            `${message.issues.replace(/[^\x20-\x7e]/g, '?')}); it is sent the chat again`,
        );
        return this.sendState();
      case 'loadEarlier': {
        const page = await this.controller.earlierPage(message.conversationId, message.before);
        if (page) this.post(page);
        // The turn it scrolled to is gone (replaced by an edit): the view gets the chat as it is now.
        else if (message.conversationId === viewId(this.controller.conversationId)) await this.sendState();
        return;
      }
      case 'send': {
        const prompt = await this.attachments.prompt(message.text, message.attachmentIds);
        const files = await this.files.take(message.attachmentIds);
        if (message.attachmentIds?.length) await this.postAttachments();
        const codebase = message.codebase === true || mentionsCodebase(message.text);
        const web = message.web === true || mentionsWeb(message.text);
        const withFiles = { ...prompt, ...files, ...(codebase ? { codebase } : {}), ...(web ? { web } : {}) };
        return message.replaces ? this.controller.edit(message.replaces, withFiles) : this.controller.send(withFiles);
      }
      case 'removeAttachment':
        await this.attachments.remove(message.id);
        await this.files.remove(message.id);
        return this.postAttachments();
      case 'attachFile':
        return this.postAttachments(await this.intake.received(message.name, message.size, message.bytes));
      case 'pickFiles':
        return this.postAttachments(await this.intake.pick());
      case 'stop':
        return this.controller.stop();
      case 'regenerate':
        return this.controller.regenerate(message.turnId);
      case 'newChat':
        return this.newChat();
      case 'showHistory':
        return this.post({ type: 'history', conversations: this.controller.history() });
      case 'openConversation':
        if (await this.controller.open(message.conversationId)) await this.sendState();
        else if (!this.controller.history().some((conversation) => conversation.id === message.conversationId)) {
          void vscode.window.showWarningMessage(vscode.l10n.t('This conversation could not be opened: its file in the workspace storage is gone or damaged.'));
        }
        return;
      case 'deleteConversation': {
        const wasOpen = message.conversationId === this.controller.conversationId;
        await this.controller.delete(message.conversationId);
        this.post({ type: 'history', conversations: this.controller.history() });
        // Deleting another chat leaves the one shown as it is (its selection, focus and scroll).
        if (wasOpen) await this.sendState();
        return;
      }
      case 'selectModel':
        return this.models.select(message.model);
      case 'errorAction':
        return runErrorAction(message.action, this.log, () => this.controller.regenerate(message.turnId));
      case 'copyReply': {
        const text = this.controller.replyText(message.turnId);
        if (text?.trim()) await copyCode(text); // never empties the clipboard
        return;
      }
      case 'doInAgentMode':
        return continueInAgentMode(this.controller.exchange(message.turnId), this.models.selected(), this.log);
      case 'copyCode':
        return copyCode(message.code);
      case 'insertCode':
        return insertCode(message.code, message.language);
      case 'openCode':
        return openCode(message.code, message.language);
      case 'openLink':
        if (!(await openLink(message.href))) this.log.warn('Ignored a link that is not http(s).');
        return;
      case 'openFile':
        return openWorkspaceFile(message);
      case 'removeSource': {
        const { turnId, file, first, last } = message;
        return this.controller.removeSource(turnId, { file, first, last });
      }
      case 'openImage':
        return this.images.open(message.fileId);
      case 'saveImage':
        return this.images.saveAs(message.fileId);
      case 'draft':
        await this.workspaceState.update(DRAFT_KEY, { text: message.text, at: message.at ?? 0 });
        return;
    }
  }

  /** The draft as the view last reported it (an older version kept only its text). */
  private draft(): { draft: string; draftAt: number } {
    const stored = StoredDraft.safeParse(this.workspaceState.get(DRAFT_KEY));
    if (!stored.success) return { draft: '', draftAt: 0 };
    return typeof stored.data === 'string' ? { draft: stored.data, draftAt: 0 } : { draft: stored.data.text, draftAt: stored.data.at };
  }

  private async sendState(): Promise<void> {
    const [conversationNow, hasKey, pictureChips] = await Promise.all([this.controller.prepareState(), this.keys.has(), this.intake.chips()]);
    // Taken right before posting: the reply being written is shown as far as it is now.
    const conversation = conversationNow();
    if (!conversation) return;
    this.post({
      type: 'state',
      ...conversation,
      hasKey,
      models: [this.models.selected()],
      model: this.models.selected(),
      ...this.draft(),
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

  /** Posts a message, fitted to what the view accepts (see fitMessage.ts); what had to be changed is logged. */
  private post(message: HostMessage): void {
    if (!this.view) return;
    const fitted = fitHostMessage(message);
    for (const note of fitted.notes) this.log.warn(note);
    void this.view.webview.postMessage(fitted.message);
  }
}

/** A message type the view names, as the log may show it. */
function safeWord(text: string): string {
  return /^\w{1,40}$/.test(text) ? text : 'a message';
}

async function setChatFocused(focused: boolean): Promise<void> {
  await vscode.commands.executeCommand('setContext', CHAT_FOCUSED_CONTEXT, focused);
}
