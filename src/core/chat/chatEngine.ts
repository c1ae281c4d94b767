import type { ChatDependencies } from './chatDependencies';
import type { ChatEvent, ChatListener } from './chatEvents';
import { removePassage } from './codebasePassages';
import { newConversation } from './conversations';
import { LiveReplies } from './liveReplies';
import { addQuestion, replaceQuestion } from './questions';
import { ReplyPictures } from './replyPictures';
import type { SavedConversations } from './savedConversations';
import type { Conversation, ConversationSummary, Prompt, SourceLines, StoredTurn } from './storedTurns';
import { messageOf } from '../base/errorMessage';

/**
 * The chat, apart from any view: the open conversation, sending, streaming the reply, stop,
 * regenerate, edit, history. What it does is told as events of its own (chatEvents.ts) to one
 * listener, which shows them (the panel's view adapter turns them into the webview's messages).
 * What it takes from outside comes in `chat`.
 */
export class ChatEngine {
  private conversation: Conversation;
  private readonly replies: LiveReplies;
  private readonly pictures: ReplyPictures;
  /** Settles once the conversation used last (before a restart) is back. */
  private readonly restored: Promise<void>;
  /** Counts `open` calls, so that only the last one asked for is shown. */
  private openings = 0;
  private listener: ChatListener = () => undefined;

  constructor(
    chat: ChatDependencies,
    private readonly saved: SavedConversations,
  ) {
    this.pictures = new ReplyPictures(chat);
    this.replies = new LiveReplies(chat, saved, this.pictures, {
      open: () => this.conversation,
      emit: (event) => this.emit(event),
    });
    this.conversation = newConversation();
    this.restored = this.saved.latest().then(
      (latest) => {
        // Unless a chat began meanwhile (a selection explained before the history was read).
        if (latest && this.conversation.turns.length === 0) this.conversation = latest;
      },
      (error: unknown) => chat.log.warn(`Could not reopen the last conversation: ${messageOf(error)}`),
    );
  }

  /** Whether a reply is being written (to any conversation). */
  get busy(): boolean {
    return this.replies.busy;
  }

  get conversationId(): string {
    return this.conversation.id;
  }

  /** The conversation open now, as it is (see `current` for the one reopened after a restart). */
  get openConversation(): Conversation {
    return this.conversation;
  }

  /** Whether `conversation` is the one open now: only its events are shown. */
  isOpen(conversation: Conversation): boolean {
    return conversation === this.conversation;
  }

  /** Sets the one listener of the engine's events (the view adapter); the previous one hears no more. */
  listen(listener: ChatListener): void {
    this.listener = listener;
  }

  /**
   * Sends a user message. While a reply is being written it joins the conversation at once and is
   * answered when that reply ends (an explanation asked for meanwhile is not lost).
   */
  async send(prompt: Prompt): Promise<void> {
    const conversation = this.conversation;
    const question = addQuestion(conversation, prompt);
    // The listener may read its thumbnails meanwhile: another chat opened by then keeps this one's question, answered when asked.
    const shown = this.emit({ type: 'turnAdded', conversation, turn: question });
    if (shown) await shown;
    if (conversation !== this.conversation) return this.saved.save(conversation);
    if (this.busy) return this.replies.answerNext(conversation);
    await this.replies.start();
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
    this.replies.forgetWaiting(conversation);
    await this.replies.stopFor(conversation);
    if (!replaceQuestion(conversation, turnId, prompt)) return this.send(prompt);
    // Moved to another chat meanwhile: this one keeps the new question, answered when asked (Get an answer).
    if (conversation !== this.conversation) return this.saved.save(conversation);
    if (!this.busy) return this.replies.start({ redraw: true });
    // A reply to another chat is still downloading its pictures: this one is answered after it.
    this.replies.answerNext(conversation);
    await this.saved.save(conversation);
    const redrawn = this.emit({ type: 'redraw' });
    if (redrawn) await redrawn;
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
    await this.replies.start({ redraw: true });
  }

  /**
   * Takes a passage out of the codebase context of the last question, and answers it again
   * without it (the × on the passage). Only while its reply is the last turn and none is being written.
   */
  async removeSource(turnId: string, source: SourceLines): Promise<void> {
    const turns = this.conversation.turns;
    const question = turns.at(-2);
    if (this.busy || question?.id !== turnId || turns.at(-1)?.role !== 'assistant' || !removePassage(question, source)) return;
    await this.regenerate();
  }

  /** The Stop button: ends the reply being written, and the download of its pictures. */
  stop(): void {
    this.replies.stop();
  }

  newChat(): Promise<void> {
    this.openings++; // a conversation still loading must not replace the new chat
    this.replies.leave();
    if (this.conversation.turns.length > 0) this.conversation = newConversation();
    return Promise.resolve();
  }

  /**
   * Opens a conversation from the history, stopping a reply being written. False when it is gone,
   * or when another was asked for while it loaded (the last one asked for is opened).
   */
  async open(conversationId: string): Promise<boolean> {
    const opening = ++this.openings;
    if (conversationId === this.conversation.id) return true;
    // A reply stopped a moment ago is still being saved: its conversation is taken as it is in memory.
    const writing = this.replies.conversation;
    const found = writing?.id === conversationId ? writing : await this.saved.get(conversationId);
    if (!found || opening !== this.openings) return false;
    this.replies.leave();
    this.conversation = found;
    return true;
  }

  /**
   * Deletes a conversation and the pictures only it showed, here and at the service (the files its
   * questions uploaded in this window, the pictures the model drew); a reply being written to it stops.
   */
  async delete(conversationId: string): Promise<void> {
    const deleting = conversationId === this.conversation.id ? this.conversation : undefined;
    if (deleting) {
      this.stop();
      this.conversation = newConversation();
    }
    const files = await this.saved.delete(conversationId, [this.conversation, this.replies.conversation, deleting]);
    await this.replies.deleteAtService(files);
  }

  /** The open conversation, once the one used last before a restart is back. */
  async current(): Promise<Conversation> {
    await this.restored;
    return this.conversation;
  }

  history(): ConversationSummary[] {
    return this.saved.list();
  }

  /**
   * Downloads the pictures of these finished replies of `conversation` that are missing from disk
   * (not among `shown`), when it is shown; resolves the turns that have all their pictures now.
   */
  async fetchMissingPictures(conversation: Conversation, turns: readonly StoredTurn[], shown: ReadonlySet<string>): Promise<StoredTurn[]> {
    const finished = turns.filter((turn) => turn !== this.replies.turn);
    const completed = await this.pictures.fetchMissing(finished, shown);
    // A reply's only notice is that its picture could not be downloaded: it has the picture now.
    const noticed = completed.filter((turn) => turn.notice !== undefined);
    for (const turn of noticed) turn.notice = undefined;
    if (noticed.length > 0) await this.saved.save(conversation);
    return completed;
  }

  private emit(event: ChatEvent): void | Promise<void> {
    return this.listener(event);
  }
}
