import {
  addQuestion,
  newConversation,
  removePassage,
  replaceQuestion,
  ReplyPictures,
  type ChatDependencies,
  type Conversation,
  type Prompt,
  type SavedConversations,
  type SourceLines,
} from '../../core';
import type { HostMessage } from '../../shared/protocol';
import { viewId } from './fitValues';
import { LiveReplies } from './liveReplies';
import type { PictureStore } from './pictureStore';
import { TranscriptPages, type NewestPage } from './transcriptPages';
import { picturesOf, replyTextOf, toViewTurn } from './viewTurns';

/** What the view's `state` message says of the open conversation: its newest page of turns. */
export interface ConversationState extends NewestPage {
  conversationId: string;
  busy: boolean;
}

/**
 * The chat's behaviour, apart from any view: the open conversation, sending, streaming the reply,
 * stop, regenerate, history. The view provider turns webview messages into calls here and
 * forwards what this posts. It imports no `vscode`: what it takes from outside comes in `chat`.
 */
export class ChatController {
  private conversation: Conversation;
  private readonly replies: LiveReplies;
  /** Settles once the conversation used last (before a restart) is back. */
  private readonly restored: Promise<void>;
  /** Counts `open` calls, so that only the last one asked for is shown. */
  private openings = 0;
  private readonly pages: TranscriptPages;
  private readonly pictures: PictureStore;
  private post: (message: HostMessage) => void = () => undefined;
  private refreshView: () => Promise<void> = () => Promise.resolve();

  constructor(
    chat: ChatDependencies & { pictures: PictureStore },
    private readonly saved: SavedConversations,
  ) {
    this.pictures = chat.pictures;
    const replyPictures = new ReplyPictures(chat);
    this.replies = new LiveReplies(chat, saved, replyPictures, {
      open: () => this.conversation,
      post: (message) => this.post(message),
      refresh: () => this.refreshView(),
    });
    this.pages = new TranscriptPages(chat.pictures, replyPictures, saved, {
      post: (message) => this.post(message),
      isOpen: (conversation) => conversation === this.conversation,
      liveTurn: () => this.replies.turn,
    });
    this.conversation = newConversation();
    this.restored = this.saved.latest().then(
      (latest) => {
        // Unless a chat began meanwhile (a selection explained before the history was read).
        if (latest && this.conversation.turns.length === 0) this.conversation = latest;
      },
      (error: unknown) => chat.log.warn(`Could not reopen the last conversation: ${(error as Error).message}`),
    );
  }

  get busy(): boolean {
    return this.replies.busy;
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
    const conversation = this.conversation;
    const question = addQuestion(conversation, prompt);
    const thumbnails = question.pictures ? await picturesOf([question], this.pictures) : undefined;
    // Reading the thumbnails took a moment: another chat opened meanwhile keeps this one's question, answered when asked.
    if (conversation !== this.conversation) return this.saved.save(conversation);
    this.post({ type: 'turnAdded', conversationId: conversation.id, turn: toViewTurn(question, thumbnails) });
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
   * Shows a conversation from the history, stopping a reply being written. False when it is gone,
   * or when another was asked for while it loaded (the last one asked for is shown).
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

  /** A reply of the open conversation as the user reads it: markdown, without the model's media tags. */
  /** A reply and the question it answers, as the user reads them (Do it in Agent mode hands both over). */
  exchange(turnId: string): { question: string; answer: string } | undefined {
    const turns = this.conversation.turns;
    const at = turns.findIndex((candidate) => candidate.id === turnId && candidate.role === 'assistant');
    const question = turns
      .slice(0, Math.max(at, 0))
      .reverse()
      .find((candidate) => candidate.role === 'user');
    return at === -1 || !question ? undefined : { question: question.content, answer: replyTextOf(turns[at]) };
  }

  replyText(turnId: string): string | undefined {
    const turn = this.conversation.turns.find((candidate) => candidate.id === turnId && candidate.role === 'assistant');
    return turn && replyTextOf(turn);
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
      this.replies.shownIn(conversation, page.turns);
      return { conversationId: conversation.id, ...page, busy: this.busy };
    };
  }

  /** The page of the open conversation's turns before `before`, for the view scrolling up (ids as the view has them). */
  earlierPage(conversationId: string, before: string): Promise<HostMessage | undefined> {
    if (conversationId !== viewId(this.conversation.id)) return Promise.resolve(undefined);
    return this.pages.earlier(this.conversation, before);
  }
}
