import type { HostMessage } from '../../shared/protocol';
import type { ClientProvider } from '../clientProvider';
import { describeError } from '../errors';
import type { Log } from '../log';
import { newConversation, type Conversation, type StoredTurn } from './conversationStore';
import type { ImageStore } from './imageStore';
import { addQuestion, replaceQuestion } from './questions';
import { DeltaPacer } from './deltaPacer';
import { shownText, viewId } from './fitMessage';
import { ReplyPictures } from './replyPictures';
import type { SavedConversations } from './savedConversations';
import { TranscriptPages, type NewestPage } from './transcriptPages';
import { picturesOf, replyTextOf, streamedDelta, toViewTurn } from './viewTurns';
import { writeReply } from './replyWriter';

/** A user message, with the editor context that produced it (explain selection). */
export interface Prompt {
  text: string;
  contextLabel?: string;
  notice?: string;
}

/** What the view's `state` message says of the open conversation: its newest page of turns. */
export interface ConversationState extends NewestPage {
  conversationId: string;
  busy: boolean;
}

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
  /** Settles once the reply has ended: saved, its pictures downloaded, the view told. */
  ended: Promise<void>;
}

/** While a reply streams, what has arrived is saved this often, so a reload or crash keeps it. */
const SAVE_STREAMING_EVERY_MS = 2000;

/**
 * The chat's behaviour, apart from any view: the open conversation, sending, streaming the reply,
 * stop, regenerate, history. The view provider turns webview messages into calls here and
 * forwards what this posts.
 */
export class ChatController {
  private conversation: Conversation;
  private live?: LiveReply;
  /** A conversation whose last user message arrived while a reply was being written: answered next. */
  private waiting?: Conversation;
  /** Settles once the conversation used last (before a restart) is back. */
  private readonly restored: Promise<void>;
  /** Counts `open` calls, so that only the last one asked for is shown. */
  private openings = 0;
  private readonly replyPictures: ReplyPictures;
  private readonly pages: TranscriptPages;
  private post: (message: HostMessage) => void = () => undefined;
  private refreshView: () => Promise<void> = async () => undefined;

  constructor(
    private readonly clients: ClientProvider,
    private readonly saved: SavedConversations,
    private readonly images: ImageStore,
    private readonly log: Log,
  ) {
    this.replyPictures = new ReplyPictures(images, clients, log);
    this.pages = new TranscriptPages(images, this.replyPictures, saved, {
      post: (message) => this.post(message),
      isOpen: (conversation) => conversation === this.conversation,
      liveTurn: () => this.live?.turn,
    });
    this.conversation = newConversation();
    this.restored = this.saved.latest().then(
      (latest) => {
        // Unless a chat began meanwhile (a selection explained before the history was read).
        if (latest && this.conversation.turns.length === 0) this.conversation = latest;
      },
      (error: unknown) => this.log.warn(`Could not reopen the last conversation: ${(error as Error).message}`),
    );
  }

  get busy(): boolean {
    return this.live !== undefined;
  }

  get conversationId(): string {
    return this.conversation.id;
  }

  /** Connects the view: `post` sends one message, `refreshView` redraws it whole. */
  attach(post: (message: HostMessage) => void, refreshView: () => Promise<void>): void {
    this.post = post;
    this.refreshView = refreshView;
  }

  /**
   * Sends a user message. While a reply is being written it joins the conversation at once and is
   * answered when that reply ends (an explanation asked for meanwhile is not lost).
   */
  async send(prompt: Prompt): Promise<void> {
    const question = addQuestion(this.conversation, prompt);
    this.post({ type: 'turnAdded', conversationId: this.conversation.id, turn: toViewTurn(question) });
    if (this.busy) {
      this.waiting = this.conversation;
      return;
    }
    await this.start();
  }

  /**
   * Replaces a question of the open conversation, and every turn after it, with `prompt`, and
   * answers that (the Edit button on a question; see `replaceQuestion`). A reply being written to
   * it is stopped first. A question no longer there is sent as a new message to the chat open now:
   * the text is not lost.
   */
  async edit(turnId: string, prompt: Prompt): Promise<void> {
    const conversation = this.conversation;
    // A message waiting for that reply is after the question, or is the question: not answered as it was.
    if (this.waiting === conversation) this.waiting = undefined;
    if (this.live?.conversation === conversation) {
      const { ended } = this.live;
      this.stop();
      await ended;
    }
    if (!replaceQuestion(conversation, turnId, prompt)) return this.send(prompt);
    // Moved to another chat meanwhile: this one keeps the new question, answered when asked (Get an answer).
    if (conversation !== this.conversation) return this.saved.save(conversation);
    if (!this.busy) return this.start({ redraw: true });
    // A reply to another chat is still downloading its pictures: this one is answered after it.
    this.waiting = conversation;
    await this.saved.save(conversation);
    await this.refreshView();
  }

  /**
   * Asks again for the last reply: after an error, a stop, or for another answer. With `turnId`
   * (a button on that reply), only while it is still the last turn: a newer reply is never replaced.
   */
  async regenerate(turnId?: string): Promise<void> {
    const turns = this.conversation.turns;
    if (this.busy || (turnId !== undefined && turns.at(-1)?.id !== turnId)) return;
    if (turns.at(-1)?.role === 'assistant') turns.pop();
    if (turns.at(-1)?.role !== 'user') return;
    await this.start({ redraw: true });
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
  private leave(): void {
    this.live?.abort.abort();
  }

  async newChat(): Promise<void> {
    this.openings++; // a conversation still loading must not replace the new chat
    this.leave();
    if (this.conversation.turns.length > 0) this.conversation = newConversation();
  }

  /**
   * Shows a conversation from the history, stopping a reply being written. False when it is gone,
   * or when another was asked for while it loaded (the last one asked for is shown).
   */
  async open(conversationId: string): Promise<boolean> {
    const opening = ++this.openings;
    if (conversationId === this.conversation.id) return true;
    // A reply stopped a moment ago is still being saved: its conversation is taken as it is in memory.
    const found = this.live?.conversation.id === conversationId ? this.live.conversation : await this.saved.get(conversationId);
    if (!found || opening !== this.openings) return false;
    this.leave();
    this.conversation = found;
    return true;
  }

  /** Deletes a conversation and the pictures only it showed; a reply being written to it stops. */
  async delete(conversationId: string): Promise<void> {
    if (conversationId === this.conversation.id) {
      this.stop();
      this.conversation = newConversation();
    }
    await this.saved.delete(conversationId, [this.conversation, this.live?.conversation]);
  }

  /** A reply of the open conversation as the user reads it: markdown, without the model's media tags. */
  replyText(turnId: string): string | undefined {
    const turn = this.conversation.turns.find((candidate) => candidate.id === turnId && candidate.role === 'assistant');
    return turn && replyTextOf(turn.content);
  }

  /** The open conversation, once the one used last before a restart is back. */
  async current(): Promise<Conversation> {
    await this.restored;
    return this.conversation;
  }

  history() {
    return this.saved.list();
  }

  /**
   * Loads what the view's state needs (pictures take a while) and returns the function that gives
   * the state as it is when called: call it right before posting, so no delta slips in between
   * (the next delta continues from the text the state shows). It gives undefined when another
   * conversation was opened meanwhile: the state for that one is posted by whoever opened it.
   */
  async prepareState(): Promise<() => ConversationState | undefined> {
    await this.restored;
    const conversation = this.conversation;
    const newestPage = await this.pages.newest(conversation);
    return () => {
      if (conversation !== this.conversation) return undefined;
      const page = newestPage();
      const live = this.live?.conversation === conversation ? this.live : undefined;
      const reply = live && page.turns.find((turn) => turn.id === live.turn?.id);
      if (live && reply) live.shown = shownText(reply.content).length;
      return { conversationId: conversation.id, ...page, busy: this.busy };
    };
  }

  /** The page of the open conversation's turns before `before`, for the view scrolling up (ids as the view has them). */
  earlierPage(conversationId: string, before: string): Promise<HostMessage | undefined> {
    if (conversationId !== viewId(this.conversation.id)) return Promise.resolve(undefined);
    return this.pages.earlier(this.conversation, before);
  }

  /** Starts the reply to the open conversation's last message; settles when it has ended. */
  private start(options: { redraw?: boolean } = {}): Promise<void> {
    const live: LiveReply = { conversation: this.conversation, abort: new AbortController(), shown: 0, ended: Promise.resolve() };
    this.live = live;
    live.ended = this.reply(live, options);
    return live.ended;
  }

  private async reply(live: LiveReply, options: { redraw?: boolean } = {}): Promise<void> {
    const { conversation, abort } = live;
    const assistant: StoredTurn = { id: crypto.randomUUID(), role: 'assistant', content: '', status: 'streaming' };
    conversation.turns.push(assistant);
    conversation.updatedAt = Date.now();
    live.turn = assistant;
    // Each message costs the view a render: the pacer sends fewer, larger deltas as the reply grows.
    const deltas = new DeltaPacer(() => this.postDelta(live));
    try {
      // Busy before the save: until the reply's turn arrives, the view must not offer to answer the message.
      this.post({ type: 'busy', busy: true });
      await this.saved.save(conversation);
      // The user may have moved to another chat while this was saved: its view must not get this turn.
      if (conversation === this.conversation) {
        if (options.redraw) await this.refreshView();
        else this.post({ type: 'turnAdded', conversationId: conversation.id, turn: toViewTurn(assistant) });
      }
      let savedAt = Date.now();
      await writeReply(await this.clients.get(), conversation, assistant, abort.signal, () => {
        deltas.offer(assistant.content.length);
        if (Date.now() - savedAt >= SAVE_STREAMING_EVERY_MS) {
          savedAt = Date.now();
          void this.saved.save(conversation);
        }
      });
    } catch (error) {
      const described = describeError(error, this.log);
      assistant.status = described.kind === 'cancelled' ? 'stopped' : 'error';
      if (assistant.status === 'error') assistant.error = described;
    } finally {
      deltas.cancel(); // the final state below carries all the text
      // Also for a reply stopped or cut off: a picture whose tag came whole is made already.
      live.downloading = new AbortController();
      await this.replyPictures.downloadFor(assistant, live.downloading.signal);
      if (this.live === live) this.live = undefined;
      conversation.updatedAt = Date.now();
      await this.saved.save(conversation);
      const pictures = await picturesOf([assistant], this.images);
      // Checked after the pictures are read, not before: the user may have switched chats meanwhile.
      if (conversation === this.conversation) this.post({ type: 'turnUpdated', turn: toViewTurn(assistant, pictures) });
      // Not idle when the next reply has started (one that waited, or one sent during the saving above).
      if (!this.answerWaiting() && !this.busy) this.post({ type: 'busy', busy: false });
    }
  }

  /** Starts the reply to a message that came while the last one was written; false when there is none. */
  private answerWaiting(): boolean {
    const conversation = this.waiting;
    this.waiting = undefined;
    if (this.busy || conversation !== this.conversation || conversation.turns.at(-1)?.role !== 'user') return false;
    void this.start();
    return true;
  }

  /** Sends the view the reply's text it does not have yet; returns how much it has then. */
  private postDelta(live: LiveReply): number {
    const turn = live.turn;
    if (!turn || live.conversation !== this.conversation) return live.shown;
    const next = streamedDelta(turn.content, live.shown);
    if (next.text) this.post({ type: 'delta', turnId: turn.id, text: next.text });
    live.shown = next.shown;
    // Past what the view shows of a text it takes no more of this reply: the pacer is told it has it all.
    return next.cut ? Number.POSITIVE_INFINITY : live.shown;
  }
}
