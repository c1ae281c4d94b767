import { LIMITS, type HostMessage, type ImageAttachment, type Turn } from '../../shared/protocol';
import type { Conversation, StoredTurn } from '../../core';
import { viewId } from './fitValues';
import type { PictureStore } from './pictureStore';
import { picturesOf, toViewTurn } from './viewTurns';

/**
 * How much of a conversation one message to the view carries: the newest turns up to this many,
 * and up to this many characters of their text (but always one turn, however long: the view shows
 * the beginning of a text longer than it takes). A long history is shown a page at a time, the
 * view asking for the page before as the user scrolls up: a chat of thousands of turns opens as
 * fast as a short one, and no message grows past what the view accepts.
 */
export const PAGE = { turns: 100, characters: 1_000_000 };

/** ↑ in the input goes back through at most this much of the questions before the page. */
const EARLIER_QUESTION_CHARACTERS = 400_000;

/** What the view's `state` says of the open conversation's turns. */
export interface NewestPage {
  turns: Turn[];
  earlierTurns: number;
  earlierQuestions: string[];
}

/** Where the page of turns that ends right before `end` starts: the newest that fit `PAGE`, at least one. */
export function pageStart(turns: readonly StoredTurn[], end: number, page = PAGE): number {
  let start = end;
  let characters = 0;
  while (start > 0 && end - start < page.turns) {
    characters += Math.min(turns[start - 1].content.length, LIMITS.text);
    if (characters > page.characters && start < end) break;
    start--;
  }
  return start;
}

/**
 * The questions of the turns before `start`, oldest first: the newest of them, within what a
 * message may carry. A question longer than a message could not be sent again: it is skipped.
 */
export function earlierQuestions(turns: readonly StoredTurn[], start: number): string[] {
  const questions: string[] = [];
  let characters = 0;
  for (let index = start - 1; index >= 0 && questions.length < LIMITS.earlierQuestions; index--) {
    const { role, content } = turns[index];
    if (role !== 'user' || content.length > LIMITS.draft) continue;
    characters += content.length;
    if (characters > EARLIER_QUESTION_CHARACTERS) break;
    questions.push(content);
  }
  return questions.reverse();
}

/**
 * The open conversation as the view holds it: its newest page (the state), the pages before it
 * that the view asked for, and the pictures of those turns, downloaded again when missing from
 * disk. Knows which turns the view holds, so a picture that arrives late updates only a turn the
 * view has (an update for any other would be drawn as a new turn at the bottom).
 */
export class TranscriptPages {
  /** The conversation the view was last given, and the oldest of its turns the view holds. */
  private held?: { conversation: Conversation; oldest?: StoredTurn };

  constructor(
    private readonly images: PictureStore,
    private readonly host: {
      post(message: HostMessage): void;
      isOpen(conversation: Conversation): boolean;
      /** Downloads the missing pictures of these finished replies (the engine's `fetchMissingPictures`); the turns that have them all now. */
      fetchMissing(conversation: Conversation, turns: readonly StoredTurn[], shown: ReadonlySet<string>): Promise<StoredTurn[]>;
    },
  ) {}

  /**
   * Loads the pictures of the conversation's newest page (reading them takes a while) and returns
   * the function that gives the page as it is when called: call it right before posting the state.
   */
  async newest(conversation: Conversation): Promise<() => NewestPage> {
    const page = conversation.turns.slice(pageStart(conversation.turns, conversation.turns.length));
    const pictures = await picturesOf(page, this.images);
    void this.fetchMissing(conversation, page, pictures);
    return () => {
      const { turns } = conversation;
      const start = pageStart(turns, turns.length);
      this.held = { conversation, oldest: turns[start] };
      return { turns: turns.slice(start).map((turn) => toViewTurn(turn, pictures)), earlierTurns: start, earlierQuestions: earlierQuestions(turns, start) };
    };
  }

  /** The page before the turn `before` (an id as the view has it); undefined when the conversation has no such turn. */
  async earlier(conversation: Conversation, before: string): Promise<Extract<HostMessage, { type: 'earlierPage' }> | undefined> {
    const find = () => conversation.turns.findIndex((turn) => viewId(turn.id) === before);
    const end = find();
    if (end < 0) return undefined;
    const pictures = await picturesOf(conversation.turns.slice(pageStart(conversation.turns, end), end), this.images);
    // An edit may have replaced the turn meanwhile: the page is taken as the conversation is now.
    const endNow = find();
    if (endNow < 0) return undefined;
    const { turns } = conversation;
    const start = pageStart(turns, endNow);
    const page = turns.slice(start, endNow);
    const held = this.held;
    if (held?.conversation === conversation && (held.oldest === undefined || start < turns.indexOf(held.oldest))) held.oldest = turns[start];
    void this.fetchMissing(conversation, page, pictures);
    return {
      type: 'earlierPage',
      conversationId: conversation.id,
      before,
      turns: page.map((turn) => toViewTurn(turn, pictures)),
      earlierTurns: start,
      earlierQuestions: earlierQuestions(turns, start),
    };
  }

  /** Downloads the pictures of these finished replies missing from disk, and shows them in the turns the view holds. */
  private async fetchMissing(conversation: Conversation, turns: readonly StoredTurn[], pictures: ReadonlyMap<string, ImageAttachment>): Promise<void> {
    const completed = await this.host.fetchMissing(conversation, turns, new Set(pictures.keys()));
    if (completed.length === 0) return;
    const downloaded = await picturesOf(completed, this.images);
    for (const turn of completed) {
      if (this.holds(conversation, turn)) this.host.post({ type: 'turnUpdated', turn: toViewTurn(turn, downloaded) });
    }
  }

  /** Whether the view shows this turn now. */
  private holds(conversation: Conversation, turn: StoredTurn): boolean {
    const held = this.held;
    if (held?.conversation !== conversation || !this.host.isOpen(conversation)) return false;
    const index = conversation.turns.indexOf(turn);
    return index >= 0 && (held.oldest === undefined || index >= conversation.turns.indexOf(held.oldest));
  }
}
