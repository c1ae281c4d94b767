import { FileUploads } from '../conversation/fileUploads';
import { toServiceConversation } from '../conversation/serviceConversation';
import { FunctionNames } from '../service/functionNames';
import { messageOf } from '../base/errorMessage';
import type { ChatDependencies, ChatSettings } from './chatDependencies';
import type { ChatEvent } from './chatEvents';
import { CodebaseUnavailable, findCodebaseContext, questionWithoutContext } from './codebaseTurn';
import { sentConversation } from './sentConversation';
import { systemText } from '../prompt/systemText';
import type { ReplyPictures } from './replyPictures';
import { writeReply, type ReplyRequest } from './replyWriter';
import type { SavedConversations } from './savedConversations';
import type { Conversation, StoredTurn } from './storedTurns';

/** A reply being written: from the moment a send or regenerate starts it until it has ended. */
interface LiveReply {
  conversation: Conversation;
  /** Ends the reply's stream: Stop, or moving to another chat. */
  abort: AbortController;
  /** Ends the download of its pictures, once that has begun: Stop only (see `leave`). */
  downloading?: AbortController;
  turn?: StoredTurn;
  /** Settles once the reply has ended: saved, its pictures downloaded, the listener told. */
  ended: Promise<void>;
}

/** What the replies need of the engine that holds them. */
export interface ReplyHost {
  /** The conversation open now: a reply starts for it, and one that waited is answered only in it. */
  open(): Conversation;
  /** Tells the engine's listener (see chatEvents.ts); awaited where what follows must come after. */
  emit(event: ChatEvent): void | Promise<void>;
}

/**
 * While a reply streams, what has arrived is saved at most this long after it arrived, so a reload
 * or crash keeps it, also when the stream pauses or stalls (a save waits on a timer, not on more text).
 */
const SAVE_STREAMING_EVERY_MS = 2000;

/**
 * The model's replies as they are written, one at a time: streaming into the conversation (the
 * listener hears each piece), saved as they grow, stopped, and a message that came meanwhile
 * answered next.
 */
export class LiveReplies {
  private live?: LiveReply;
  /** A conversation whose last user message arrived while a reply was being written: answered next. */
  private waiting?: Conversation;
  /**
   * The questions' files as the service knows them, uploaded once each when a reply first needs
   * them. Files are scoped to the client id, new in every window: so are the ids kept here.
   */
  private readonly uploads: FileUploads;

  constructor(
    private readonly chat: ChatDependencies,
    private readonly saved: SavedConversations,
    private readonly replyPictures: ReplyPictures,
    private readonly host: ReplyHost,
  ) {
    this.uploads = new FileUploads(async (bytes, options) => (await chat.clients.get()).uploadFile(bytes, options));
  }

  get busy(): boolean {
    return this.live !== undefined;
  }

  /** The conversation a reply is being written to. */
  get conversation(): Conversation | undefined {
    return this.live?.conversation;
  }

  /** The reply turn being written. */
  get turn(): StoredTurn | undefined {
    return this.live?.turn;
  }

  /** Answers `conversation`'s last message once the reply being written has ended. */
  answerNext(conversation: Conversation): void {
    this.waiting = conversation;
  }

  /** `conversation`'s waiting message is not answered as it was (it was edited). */
  forgetWaiting(conversation: Conversation): void {
    if (this.waiting === conversation) this.waiting = undefined;
  }

  /**
   * Deletes at the service a deleted conversation's files: those its questions uploaded (`attached`,
   * by their id in the store; only this window's uploads are known, and only this window may delete
   * them) and the pictures the model drew (`drawn`). A file that cannot be deleted is logged.
   */
  async deleteAtService({ attached, drawn }: { attached: string[]; drawn: string[] }): Promise<void> {
    const fileIds = [...this.uploads.forget(attached), ...drawn];
    if (fileIds.length === 0) return;
    const failures: string[] = [];
    try {
      const client = await this.chat.clients.get();
      for (const fileId of fileIds) await client.deleteFile(fileId).catch((error: unknown) => failures.push(messageOf(error)));
    } catch (error) {
      failures.push(messageOf(error));
    }
    const deleted = fileIds.length - failures.length;
    if (deleted > 0) this.chat.log.info(`Deleted ${deleted} files of a deleted conversation at the service`);
    if (failures.length > 0) this.chat.log.warn(`Could not delete files of a deleted conversation at the service: ${failures.join('; ')}`);
  }

  /** Stops the reply being written to `conversation`, if one is; settles once it has ended. */
  async stopFor(conversation: Conversation): Promise<void> {
    if (this.live?.conversation !== conversation) return;
    const { ended } = this.live;
    this.stop();
    await ended;
  }

  /** The Stop button: ends the reply being written, and the download of its pictures. */
  stop(): void {
    this.live?.abort.abort();
    this.live?.downloading?.abort();
  }

  /**
   * Ends the reply being written when the user moves to another chat. Its pictures still arrive:
   * the model has made them already, and nothing would download them later.
   */
  leave(): void {
    this.live?.abort.abort();
  }

  /** Starts the reply to the open conversation's last message; settles when it has ended. */
  start(options: { redraw?: boolean } = {}): Promise<void> {
    const live: LiveReply = { conversation: this.host.open(), abort: new AbortController(), ended: Promise.resolve() };
    this.live = live;
    live.ended = this.reply(live, options);
    return live.ended;
  }

  private async reply(live: LiveReply, options: { redraw?: boolean }): Promise<void> {
    const { conversation, abort } = live;
    const { clock } = this.chat;
    const assistant: StoredTurn = { id: crypto.randomUUID(), role: 'assistant', content: '', status: 'streaming' };
    conversation.turns.push(assistant);
    conversation.updatedAt = Date.now();
    live.turn = assistant;
    const tell = (event: ChatEvent) => void this.host.emit(event);
    tell({ type: 'replyStarted', conversation, turn: assistant });
    let saveTimer: unknown;
    try {
      // Busy before the save: until the reply's turn is shown, the chat must not offer to answer the message.
      tell({ type: 'busy', busy: true });
      await this.saved.save(conversation);
      // The user may have moved to another chat while this was saved: that chat must not show this turn.
      if (conversation === this.host.open()) {
        const shown = this.host.emit(options.redraw ? { type: 'redraw' } : { type: 'turnAdded', conversation, turn: assistant });
        if (shown) await shown;
      }
      const client = await this.chat.clients.get();
      const settings = this.chat.readSettings();
      await this.findContext(live, assistant, settings);
      const onText = () => {
        tell({ type: 'replyGrew', conversation, turn: assistant });
        // The save of the text that arrived since the last one, due at most SAVE_STREAMING_EVERY_MS after it.
        saveTimer ??= clock.setTimeout(() => {
          saveTimer = undefined;
          void this.saved.save(conversation);
        }, SAVE_STREAMING_EVERY_MS);
      };
      // Another request of the account holds its stream: the reply says it waits, not that the model thinks.
      const onWait = (waiting: boolean) => tell({ type: 'replyWaiting', conversation, turn: assistant, waiting });
      const rules = (await this.chat.rules?.find()) ?? { text: '', files: [] };
      assistant.rules = rules.files.length > 0 ? rules.files : undefined;
      // The project's rules before the user's own system prompt, which has the last word.
      const system = { ...settings, systemPrompt: systemText({ rules: rules.text, userPrompt: settings.systemPrompt }, '\n\n') };
      // Asked once more, with the files uploaded again, when the service no longer has those uploaded earlier.
      for (let attempt = 0; ; attempt++) {
        const request = await this.request(live, assistant, system);
        try {
          await writeReply(client, conversation, assistant, request, abort.signal, settings, onText, onWait);
          break;
        } catch (error) {
          if (attempt > 0 || assistant.content !== '' || !this.uploads.forgetIfStale(error)) throw error;
        }
      }
    } catch (error) {
      const described = error instanceof CodebaseUnavailable ? error.described : this.chat.describeError(error);
      assistant.status = described.kind === 'cancelled' ? 'stopped' : 'error';
      if (assistant.status === 'error') assistant.error = described;
    } finally {
      tell({ type: 'replyStreamEnded', conversation, turn: assistant }); // the final state below carries all the text
      if (saveTimer !== undefined) clock.clearTimeout(saveTimer);
      // Also for a reply stopped or cut off: a picture whose tag came whole is made already.
      live.downloading = new AbortController();
      await this.replyPictures.downloadFor(assistant, live.downloading.signal);
      if (this.live === live) this.live = undefined;
      conversation.updatedAt = Date.now();
      await this.saved.save(conversation);
      // A listener that reads the reply's pictures has shown it before it hears the chat is idle.
      const shown = this.host.emit({ type: 'turnChanged', conversation, turn: assistant });
      if (shown) await shown;
      // Not idle when the next reply has started (one that waited, or one sent during the saving above).
      if (!this.answerWaiting() && !this.busy) tell({ type: 'busy', busy: false });
    }
  }

  /**
   * What the reply is asked with, through the one pipeline: the conversation as the core's turns,
   * then the service's messages, with the questions' pictures and documents uploaded (those not
   * uploaded yet, the reply saying so meanwhile) and attached. A failure is the reply's error: the
   * questions and their files stay, and Retry uploads what is still missing. Files left out for the
   * request's limits, and earlier pictures a model that cannot see them is not sent, are named in
   * the reply's notice, which stays with it.
   */
  private async request(live: LiveReply, assistant: StoredTurn, settings: ChatSettings): Promise<ReplyRequest> {
    const sent = await sentConversation(live.conversation, assistant, settings.systemPrompt, this.chat.pictures, settings.model);
    const service = toServiceConversation(sent.messages, new FunctionNames());
    const { missing } = this.uploads.plan(service);
    const showTurn = () => void this.host.emit({ type: 'turnChanged', conversation: live.conversation, turn: assistant });
    if (missing > 0) {
      assistant.notice = this.chat.texts.uploadingPictures(missing);
      showTurn();
    }
    try {
      const { leftOut } = await this.uploads.attach(service, live.abort.signal);
      const { texts } = this.chat;
      const notices = [
        ...(sent.earlierPicturesLeftOut > 0 ? [texts.earlierPicturesLeftOut(sent.earlierPicturesLeftOut, settings.model)] : []),
        ...(leftOut > 0 ? [texts.filesLeftOut(leftOut)] : []),
      ];
      assistant.notice = notices.length > 0 ? notices.join(' ') : undefined;
      return { ...sent, messages: service.messages };
    } catch (error) {
      assistant.notice = undefined;
      throw error;
    } finally {
      if (missing > 0 || assistant.notice !== undefined) showTurn();
    }
  }

  /** Finds the codebase context of the question answered (when it asks for it), the reply saying so meanwhile; the question shows what was found. */
  private async findContext(live: LiveReply, assistant: StoredTurn, settings: ChatSettings): Promise<void> {
    const { conversation } = live;
    const question = questionWithoutContext(conversation, assistant);
    const source = this.chat.codebase;
    if (!question || !source) return;
    const show = (turn: StoredTurn) => this.host.emit({ type: 'turnChanged', conversation, turn });
    assistant.notice = this.chat.texts.searchingWorkspace();
    void show(assistant);
    try {
      await findCodebaseContext(conversation, question, assistant, source, settings, live.abort.signal);
      await this.saved.save(conversation);
      const shown = show(question); // a listener may read its pictures first
      if (shown) await shown;
    } finally {
      assistant.notice = undefined;
      void show(assistant);
    }
  }

  /** Starts the reply to a message that came while the last one was written; false when there is none. */
  private answerWaiting(): boolean {
    const conversation = this.waiting;
    this.waiting = undefined;
    if (this.busy || conversation !== this.host.open() || conversation.turns.at(-1)?.role !== 'user') return false;
    void this.start();
    return true;
  }
}
