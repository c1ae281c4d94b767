import {
  pictureIdsOf,
  questionPictureIds,
  type ChatEngine,
  type ChatEvent,
  type Clock,
  type Conversation,
  type ConversationSummary,
  type Prompt,
  type StoredTurn,
} from '../../core';
import type { HostMessage, ImageAttachment, Turn, ViewMessage } from '../../shared/protocol';
import { viewId } from './fitValues';
import type { PictureStore } from './pictureStore';
import { ReplyDeltas } from './replyDeltas';
import { TranscriptPages, type NewestPage } from './transcriptPages';
import { picturesOf, replyTextOf, toViewTurn } from './viewTurns';

/** What the view's `state` message says of the open conversation: its newest page of turns. */
export interface ConversationState extends NewestPage {
  conversationId: string;
  busy: boolean;
}

const CONVERSATION_REQUESTS = ['send', 'stop', 'regenerate', 'removeSource', 'loadEarlier', 'showHistory', 'deleteConversation'] as const;
/** The view's requests about the conversation itself, which the adapter carries to the engine. */
export type ConversationRequest = Extract<ViewMessage, { type: (typeof CONVERSATION_REQUESTS)[number] }>;

export function isConversationRequest(message: ViewMessage): message is ConversationRequest {
  return (CONVERSATION_REQUESTS as readonly string[]).includes(message.type);
}

/** How the adapter reaches the view; set once the view exists (`attach`). */
export interface ChatView {
  post(message: HostMessage): void;
  /** Draws the view whole again (the view provider's state message). */
  redraw(): Promise<void>;
}

/**
 * The chat engine (src/core/chat) as the panel's webview shows it: the view's requests about the
 * conversation carried to the engine, and the engine's events turned into the webview's messages
 * (turns as the view draws them, with their pictures; paced deltas of a streaming reply; pages of
 * a long conversation). The only part of the host that calls the engine (services.ts builds it).
 */
export class ChatViewAdapter {
  private view: ChatView = { post: () => undefined, redraw: () => Promise.resolve() };
  private readonly pages: TranscriptPages;
  private readonly deltas: ReplyDeltas;

  constructor(
    private readonly engine: ChatEngine,
    private readonly pictures: PictureStore,
    clock: Clock,
    /** The prompt a `send` makes: its text with the code and files attached to it (the view provider's). */
    private readonly compose: (message: Extract<ViewMessage, { type: 'send' }>) => Promise<Prompt>,
  ) {
    const isOpen = (conversation: Conversation) => engine.isOpen(conversation);
    const post = (message: HostMessage) => this.view.post(message);
    this.deltas = new ReplyDeltas({ isOpen, post }, clock);
    this.pages = new TranscriptPages(pictures, { isOpen, post, fetchMissing: (...args) => engine.fetchMissingPictures(...args) });
    engine.listen((event) => this.show(event));
  }

  /** Connects the view: `post` sends one message, `redraw` draws it whole. */
  attach(view: ChatView): void {
    this.view = view;
  }

  /** Does what a request of the view about the conversation asks. */
  async receive(request: ConversationRequest): Promise<void> {
    const { engine } = this;
    switch (request.type) {
      case 'send': {
        const prompt = await this.compose(request);
        return request.replaces ? engine.edit(request.replaces, prompt) : engine.send(prompt);
      }
      case 'stop':
        return engine.stop();
      case 'regenerate':
        return engine.regenerate(request.turnId);
      case 'removeSource': {
        const { turnId, file, first, last } = request;
        return engine.removeSource(turnId, { file, first, last });
      }
      case 'loadEarlier': {
        const page = await this.earlierPage(request.conversationId, request.before);
        if (page) this.view.post(page);
        // The turn it scrolled to is gone (replaced by an edit): the view gets the chat as it is now.
        else if (request.conversationId === viewId(engine.conversationId)) await this.view.redraw();
        return;
      }
      case 'showHistory':
        return this.view.post({ type: 'history', conversations: engine.history() });
      case 'deleteConversation': {
        const wasOpen = request.conversationId === engine.conversationId;
        await engine.delete(request.conversationId);
        this.view.post({ type: 'history', conversations: engine.history() });
        // Deleting another chat leaves the one shown as it is (its selection, focus and scroll).
        if (wasOpen) await this.view.redraw();
        return;
      }
    }
  }

  /** Sends a prompt that did not come from the view's input (Explain Selection, search results). */
  send(prompt: Prompt): Promise<void> {
    return this.engine.send(prompt);
  }

  /** Asks again for the reply `turnId` while it is the last one (an error's Retry). */
  regenerate(turnId?: string): Promise<void> {
    return this.engine.regenerate(turnId);
  }

  newChat(): Promise<void> {
    return this.engine.newChat();
  }

  /** Opens a conversation of the history; false when it is gone, or another was asked for meanwhile. */
  open(conversationId: string): Promise<boolean> {
    return this.engine.open(conversationId);
  }

  history(): ConversationSummary[] {
    return this.engine.history();
  }

  /** The open conversation, once the one used last before a restart is back. */
  current(): Promise<Conversation> {
    return this.engine.current();
  }

  /** A reply and the question it answers, as the user reads them (Do it in Agent mode hands both over). */
  exchange(turnId: string): { question: string; answer: string } | undefined {
    const turns = this.engine.openConversation.turns;
    const at = turns.findIndex((candidate) => candidate.id === turnId && candidate.role === 'assistant');
    const question = turns
      .slice(0, Math.max(at, 0))
      .reverse()
      .find((candidate) => candidate.role === 'user');
    return at === -1 || !question ? undefined : { question: question.content, answer: replyTextOf(turns[at]) };
  }

  /** A reply of the open conversation as the user reads it: markdown, without the model's media tags. */
  replyText(turnId: string): string | undefined {
    const turn = this.engine.openConversation.turns.find((candidate) => candidate.id === turnId && candidate.role === 'assistant');
    return turn && replyTextOf(turn);
  }

  /**
   * Loads what the view's state needs (pictures take a while) and returns the function that gives
   * the state as it is when called: call it right before posting, so no delta slips in between
   * (the next delta continues from the text the state shows). It gives undefined when another
   * conversation was opened meanwhile: the state for that one is posted by whoever opened it.
   */
  async prepareState(): Promise<() => ConversationState | undefined> {
    const conversation = await this.engine.current();
    const newestPage = await this.pages.newest(conversation);
    return () => {
      if (!this.engine.isOpen(conversation)) return undefined;
      const page = newestPage();
      this.deltas.shownIn(conversation, page.turns);
      return { conversationId: conversation.id, ...page, busy: this.engine.busy };
    };
  }

  /** The page of the open conversation's turns before `before`, for the view scrolling up (ids as the view has them). */
  private earlierPage(conversationId: string, before: string): Promise<HostMessage | undefined> {
    if (conversationId !== viewId(this.engine.conversationId)) return Promise.resolve(undefined);
    return this.pages.earlier(this.engine.openConversation, before);
  }

  /** Shows what the engine did; a promise only while a turn's pictures are read (the engine waits for it). */
  private show(event: ChatEvent): void | Promise<void> {
    switch (event.type) {
      case 'busy':
        return this.view.post({ type: 'busy', busy: event.busy });
      case 'redraw':
        return this.view.redraw();
      case 'replyStarted':
        return this.deltas.started(event.conversation, event.turn);
      case 'replyGrew':
        return this.deltas.grew(event.turn);
      case 'replyStreamEnded':
        return this.deltas.ended(event.turn);
      case 'replyWaiting':
        if (this.engine.isOpen(event.conversation)) this.view.post({ type: 'replyWaiting', turnId: event.turn.id, waiting: event.waiting });
        return;
      case 'turnAdded':
        return this.showTurn(event.conversation, event.turn, (turn) => ({ type: 'turnAdded', conversationId: event.conversation.id, turn }));
      case 'turnChanged':
        return this.showTurn(event.conversation, event.turn, (turn) => ({ type: 'turnUpdated', turn }));
    }
  }

  /**
   * Posts a turn of the open conversation as the view draws it. One with pictures has them read
   * first, and whether its conversation is still open is asked after that (the user may have
   * moved to another chat meanwhile).
   */
  private showTurn(conversation: Conversation, stored: StoredTurn, message: (turn: Turn) => HostMessage): void | Promise<void> {
    const post = (pictures?: ReadonlyMap<string, ImageAttachment>) => {
      if (this.engine.isOpen(conversation)) this.view.post(message(toViewTurn(stored, pictures)));
    };
    if (pictureIdsOf([stored]).length === 0 && questionPictureIds([stored]).length === 0) return post();
    return picturesOf([stored], this.pictures).then(post);
  }
}
