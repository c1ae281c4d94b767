import type { HostMessage, ImageAttachment, Turn } from '../../shared/protocol';
import {
  CodebaseUnavailable,
  FileUploads,
  findCodebaseContext,
  FunctionNames,
  panelConversation,
  questionWithoutContext,
  toServiceConversation,
  writeReply,
  type ChatDependencies,
  type ChatSettings,
  type Conversation,
  type ReplyPictures,
  type ReplyRequest,
  type SavedConversations,
  type StoredTurn,
} from '../../core';
import { DeltaPacer } from './deltaPacer';
import { shownText } from './fitValues';
import type { PictureStore } from './pictureStore';
import { picturesOf, streamedDelta, toViewTurn } from './viewTurns';

/** A reply being written: from the moment a send or regenerate starts it until it has ended. */
interface LiveReply {
  conversation: Conversation;
  /** Ends the reply's stream: Stop, or moving to another chat. */
  abort: AbortController;
  /** Ends the download of its pictures, once that has begun: Stop only (see `leave`). */
  downloading?: AbortController;
  turn?: StoredTurn;
  /** How much of the reply's displayed text the view has (deltas continue from there). */
  shown: number;
  /** How much of the reply's reasoning the view has. */
  reasoningShown: number;
  /** Settles once the reply has ended: saved, its pictures downloaded, the view told. */
  ended: Promise<void>;
}

/** What the replies need of the chat that shows them. */
export interface ReplyView {
  /** The conversation the view shows now: only its replies reach the view. */
  open(): Conversation;
  post(message: HostMessage): void;
  /** Redraws the view whole. */
  refresh(): Promise<void>;
}

/**
 * While a reply streams, what has arrived is saved at most this long after it arrived, so a reload
 * or crash keeps it, also when the stream pauses or stalls (a save waits on a timer, not on more text).
 */
const SAVE_STREAMING_EVERY_MS = 2000;

/**
 * The model's replies as they are written, one at a time: streaming into the conversation and to
 * the view, saved as they grow, stopped, and a message that came meanwhile answered next.
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
    private readonly chat: ChatDependencies & { pictures: PictureStore },
    private readonly saved: SavedConversations,
    private readonly replyPictures: ReplyPictures,
    private readonly view: ReplyView,
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
      for (const fileId of fileIds) await client.deleteFile(fileId).catch((error: unknown) => failures.push((error as Error).message));
    } catch (error) {
      failures.push((error as Error).message);
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

  /** The view is about to be given `turns` of `conversation`: the next delta continues from the text they show. */
  shownIn(conversation: Conversation, turns: readonly Turn[]): void {
    const live = this.live?.conversation === conversation ? this.live : undefined;
    const reply = live && turns.find((turn) => turn.id === live.turn?.id);
    if (live && reply) {
      live.shown = shownText(reply.content).length;
      live.reasoningShown = shownText(reply.reasoning ?? '').length;
    }
  }

  /** Starts the reply to the open conversation's last message; settles when it has ended. */
  start(options: { redraw?: boolean } = {}): Promise<void> {
    const live: LiveReply = { conversation: this.view.open(), abort: new AbortController(), shown: 0, reasoningShown: 0, ended: Promise.resolve() };
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
    // Each message costs the view a render: the pacer sends fewer, larger deltas as the reply grows.
    const deltas = new DeltaPacer(() => this.postDelta(live), undefined, clock);
    let saveTimer: unknown;
    try {
      // Busy before the save: until the reply's turn arrives, the view must not offer to answer the message.
      this.view.post({ type: 'busy', busy: true });
      await this.saved.save(conversation);
      // The user may have moved to another chat while this was saved: its view must not get this turn.
      if (conversation === this.view.open()) {
        if (options.redraw) await this.view.refresh();
        else this.view.post({ type: 'turnAdded', conversationId: conversation.id, turn: toViewTurn(assistant) });
      }
      const client = await this.chat.clients.get();
      const settings = this.chat.readSettings();
      await this.findContext(live, assistant, settings);
      const onText = () => {
        deltas.offer(assistant.content.length + (assistant.reasoning?.length ?? 0));
        // The save of the text that arrived since the last one, due at most SAVE_STREAMING_EVERY_MS after it.
        saveTimer ??= clock.setTimeout(() => {
          saveTimer = undefined;
          void this.saved.save(conversation);
        }, SAVE_STREAMING_EVERY_MS);
      };
      // Another request of the account holds its stream: the reply says it waits, not that the model thinks.
      const onWait = (waiting: boolean) => conversation === this.view.open() && this.view.post({ type: 'replyWaiting', turnId: assistant.id, waiting });
      const rules = (await this.chat.rules?.find()) ?? { text: '', files: [] };
      assistant.rules = rules.files.length > 0 ? rules.files : undefined;
      // The project's rules before the user's own system prompt, which has the last word.
      const system = { ...settings, systemPrompt: [rules.text, settings.systemPrompt.trim()].filter(Boolean).join('\n\n') };
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
      deltas.cancel(); // the final state below carries all the text
      if (saveTimer !== undefined) clock.clearTimeout(saveTimer);
      // Also for a reply stopped or cut off: a picture whose tag came whole is made already.
      live.downloading = new AbortController();
      await this.replyPictures.downloadFor(assistant, live.downloading.signal);
      if (this.live === live) this.live = undefined;
      conversation.updatedAt = Date.now();
      await this.saved.save(conversation);
      const pictures = await picturesOf([assistant], this.chat.pictures);
      // Checked after the pictures are read, not before: the user may have switched chats meanwhile.
      if (conversation === this.view.open()) this.view.post({ type: 'turnUpdated', turn: toViewTurn(assistant, pictures) });
      // Not idle when the next reply has started (one that waited, or one sent during the saving above).
      if (!this.answerWaiting() && !this.busy) this.view.post({ type: 'busy', busy: false });
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
    const panel = await panelConversation(live.conversation, assistant, settings.systemPrompt, this.chat.pictures, settings.model);
    const service = toServiceConversation(panel.messages, new FunctionNames());
    const { missing } = this.uploads.plan(service);
    const showTurn = () => live.conversation === this.view.open() && this.view.post({ type: 'turnUpdated', turn: toViewTurn(assistant) });
    if (missing > 0) {
      assistant.notice = this.chat.texts.uploadingPictures(missing);
      showTurn();
    }
    try {
      const { leftOut } = await this.uploads.attach(service, live.abort.signal);
      const { texts } = this.chat;
      const notices = [
        ...(panel.earlierPicturesLeftOut > 0 ? [texts.earlierPicturesLeftOut(panel.earlierPicturesLeftOut, settings.model)] : []),
        ...(leftOut > 0 ? [texts.filesLeftOut(leftOut)] : []),
      ];
      assistant.notice = notices.length > 0 ? notices.join(' ') : undefined;
      return { ...panel, messages: service.messages };
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
    const show = (turn: StoredTurn, pictures?: Map<string, ImageAttachment>) =>
      conversation === this.view.open() && this.view.post({ type: 'turnUpdated', turn: toViewTurn(turn, pictures) });
    assistant.notice = this.chat.texts.searchingWorkspace();
    show(assistant);
    try {
      await findCodebaseContext(conversation, question, assistant, source, settings, live.abort.signal);
      await this.saved.save(conversation);
      show(question, await picturesOf([question], this.chat.pictures));
    } finally {
      assistant.notice = undefined;
      show(assistant);
    }
  }

  /** Starts the reply to a message that came while the last one was written; false when there is none. */
  private answerWaiting(): boolean {
    const conversation = this.waiting;
    this.waiting = undefined;
    if (this.busy || conversation !== this.view.open() || conversation.turns.at(-1)?.role !== 'user') return false;
    void this.start();
    return true;
  }

  /** Sends the view the reply's text it does not have yet; returns how much it has then. */
  private postDelta(live: LiveReply): number {
    const turn = live.turn;
    if (!turn || live.conversation !== this.view.open()) return live.shown;
    const reasoning = shownText(turn.reasoning ?? '');
    if (reasoning.length > live.reasoningShown) {
      this.view.post({ type: 'reasoningDelta', turnId: turn.id, text: reasoning.slice(live.reasoningShown) });
      live.reasoningShown = reasoning.length;
    }
    const next = streamedDelta(turn.content, live.shown, turn.webSources);
    if (next.text) this.view.post({ type: 'delta', turnId: turn.id, text: next.text });
    live.shown = next.shown;
    // Past what the view shows of a text it takes no more of this reply: the pacer is told it has it all.
    return next.cut ? Number.POSITIVE_INFINITY : live.shown + live.reasoningShown;
  }
}
