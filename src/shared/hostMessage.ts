import * as z from 'zod';
import { AttachmentChip, ConversationSummary, Turn } from './messageShapes';
import { draft, id, LIMITS, MAX_ATTACHED_FILES, MAX_ATTACHMENTS, text } from './protocolFields';

// What the host sends the chat view (see protocol.ts).

const attachments = z.array(AttachmentChip).max(MAX_ATTACHMENTS + MAX_ATTACHED_FILES);
const turns = z.array(Turn).max(LIMITS.turnsPerMessage);
/** How many turns of the conversation come before those of the message: the view asks for them as it scrolls up. */
const earlierTurns = z.number().int().nonnegative();
/** The questions of the turns before those of the message, oldest first (the newest of them only): ↑ in the input brings them back. */
const earlierQuestions = z.array(draft).max(LIMITS.earlierQuestions);
const models = z.array(z.string().max(LIMITS.modelName)).max(LIMITS.models);
const model = z.string().max(LIMITS.modelName);

export const HostMessage = z.discriminatedUnion('type', [
  /**
   * The whole view, sent on `ready` and after switching conversations: the conversation's newest
   * turns (as many as fit a page), and how many come before them.
   */
  z.object({
    type: z.literal('state'),
    hasKey: z.boolean(),
    conversationId: id,
    turns,
    earlierTurns,
    earlierQuestions,
    busy: z.boolean(),
    models,
    model,
    draft,
    /** When the view wrote `draft` (its own clock): a view holding a newer one of its own keeps that. */
    draftAt: z.number().nonnegative().optional(),
    attachments,
  }),
  /** The page of turns that comes right before the turn `before` (the view asked for it: `loadEarlier`). */
  z.object({ type: z.literal('earlierPage'), conversationId: id, before: id, turns, earlierTurns, earlierQuestions }),
  /**
   * A new turn appended to the open conversation (the user's message or a reply starting). The
   * conversation is named, so a view showing another one never puts the turn under it.
   */
  z.object({ type: z.literal('turnAdded'), conversationId: id, turn: Turn }),
  /** More text of a reply being streamed: appended to the turn's content. */
  z.object({ type: z.literal('delta'), turnId: id, text }),
  /**
   * The reply waits for the account's stream (another request holds it): the view says so instead
   * of "thinking" until the stream is free (`waiting` false) or the first text arrives.
   */
  z.object({ type: z.literal('replyWaiting'), turnId: id, waiting: z.boolean() }),
  /** More of a reasoning model's thinking: appended to the turn's reasoning. */
  z.object({ type: z.literal('reasoningDelta'), turnId: id, text }),
  /** A turn's final state (content included, so the view can correct anything it missed). */
  z.object({ type: z.literal('turnUpdated'), turn: Turn }),
  z.object({ type: z.literal('busy'), busy: z.boolean() }),
  z.object({ type: z.literal('history'), conversations: z.array(ConversationSummary).max(LIMITS.conversations) }),
  z.object({ type: z.literal('models'), models, model }),
  z.object({ type: z.literal('keyState'), hasKey: z.boolean() }),
  /** The code attached to the next message changed (added from the editor, removed, sent). */
  z.object({ type: z.literal('attachments'), attachments }),
  /**
   * Files the user tried to attach were not: what limit each broke and what to do, one message
   * each (already localized). The view shows them by the input until the next attempt or message.
   */
  z.object({ type: z.literal('attachmentsRefused'), messages: z.array(z.string().max(LIMITS.errorMessage)).min(1).max(MAX_ATTACHED_FILES) }),
  /** Puts focus in the input (after a command opened the view). */
  z.object({ type: z.literal('focusInput') }),
  /** Show Chat History, from the view's title bar or the command palette. */
  z.object({ type: z.literal('openHistory') }),
]);
export type HostMessage = z.infer<typeof HostMessage>;
