import type { Conversation, StoredTurn } from './storedTurns';

/**
 * What the chat engine tells whoever shows its conversations (the panel's view adapter): its own
 * shapes, the engine's turns as they are, with no view's protocol. A listener decides what to show
 * and how: the engine awaits it where what follows must come after (a turn's pictures read for the
 * view before the next turn is told of), so a listener that reads from disk keeps the order.
 *
 * Events about a turn name its conversation: it may no longer be the open one by the time the
 * listener acts (the user moved to another chat), and only the open one is shown.
 */
export type ChatEvent =
  /** A reply started (true), or the last one ended with none waiting to start (false). */
  | { type: 'busy'; busy: boolean }
  /** A turn joined the conversation: a question, or the reply about to be written to it. */
  | { type: 'turnAdded'; conversation: Conversation; turn: StoredTurn }
  /** A turn changed, not by its reply's text streaming in: a notice, the codebase context found, its final state. */
  | { type: 'turnChanged'; conversation: Conversation; turn: StoredTurn }
  /** A reply's turn exists from now on; its text and reasoning stream into it until `replyStreamEnded`. */
  | { type: 'replyStarted'; conversation: Conversation; turn: StoredTurn }
  /** More of the reply's text or reasoning arrived. */
  | { type: 'replyGrew'; conversation: Conversation; turn: StoredTurn }
  /** The reply's stream is over (ended, stopped or failed); its final state follows once its pictures are downloaded. */
  | { type: 'replyStreamEnded'; conversation: Conversation; turn: StoredTurn }
  /** The reply waits for the account's stream (another request holds it), or no longer does. */
  | { type: 'replyWaiting'; conversation: Conversation; turn: StoredTurn; waiting: boolean }
  /** The open conversation changed beyond one turn (an edited question, a regenerated reply): shown again whole. */
  | { type: 'redraw' };

/**
 * Hears the engine's events. It returns a promise only when it works asynchronously (reads a
 * turn's pictures): the engine then awaits it where the order matters, and otherwise goes on at
 * once (two messages sent together must add their turns in the order they came).
 */
export type ChatListener = (event: ChatEvent) => void | Promise<void>;
