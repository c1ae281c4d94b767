import type { Clock, Conversation, StoredTurn } from '../../core';
import type { HostMessage, Turn } from '../../shared/protocol';
import { DeltaPacer } from './deltaPacer';
import { shownText } from './fitValues';
import { streamedDelta } from './viewTurns';

/** The reply whose text streams to the view now. */
interface StreamingReply {
  conversation: Conversation;
  turn: StoredTurn;
  /** How much of the reply's displayed text the view has (deltas continue from there). */
  shown: number;
  /** How much of the reply's reasoning the view has. */
  reasoningShown: number;
  pacer: DeltaPacer;
}

/**
 * The reply being written as the view receives it: the text and reasoning that arrived since the
 * last delta, sent as `delta` and `reasoningDelta` messages. Each message costs the view a render:
 * the pacer sends fewer, larger deltas as the reply grows.
 */
export class ReplyDeltas {
  private streaming?: StreamingReply;

  constructor(
    private readonly view: {
      /** Whether the view shows this conversation now: only its reply's deltas are sent. */
      isOpen(conversation: Conversation): boolean;
      post(message: HostMessage): void;
    },
    private readonly clock: Clock,
  ) {}

  /** A reply's turn was added: its text streams into it from now on. */
  started(conversation: Conversation, turn: StoredTurn): void {
    this.streaming?.pacer.cancel();
    const streaming: StreamingReply = {
      conversation,
      turn,
      shown: 0,
      reasoningShown: 0,
      pacer: new DeltaPacer(() => this.postDelta(streaming), undefined, this.clock),
    };
    this.streaming = streaming;
  }

  /** More of the reply arrived: a delta goes out when the pacer says it is due. */
  grew(turn: StoredTurn): void {
    if (this.streaming?.turn === turn) this.streaming.pacer.offer(turn.content.length + (turn.reasoning?.length ?? 0));
  }

  /** The reply's stream is over: no delta is sent any more (its final state carries all the text). */
  ended(turn: StoredTurn): void {
    if (this.streaming?.turn !== turn) return;
    this.streaming.pacer.cancel();
    this.streaming = undefined;
  }

  /** The view is about to be given `turns` of `conversation`: the next delta continues from the text they show. */
  shownIn(conversation: Conversation, turns: readonly Turn[]): void {
    const streaming = this.streaming?.conversation === conversation ? this.streaming : undefined;
    const reply = streaming && turns.find((turn) => turn.id === streaming.turn.id);
    if (streaming && reply) {
      streaming.shown = shownText(reply.content).length;
      streaming.reasoningShown = shownText(reply.reasoning ?? '').length;
    }
  }

  /** Sends the view the reply's text it does not have yet; returns how much it has then. */
  private postDelta(streaming: StreamingReply): number {
    const { turn } = streaming;
    if (!this.view.isOpen(streaming.conversation)) return streaming.shown;
    const reasoning = shownText(turn.reasoning ?? '');
    if (reasoning.length > streaming.reasoningShown) {
      this.view.post({ type: 'reasoningDelta', turnId: turn.id, text: reasoning.slice(streaming.reasoningShown) });
      streaming.reasoningShown = reasoning.length;
    }
    const next = streamedDelta(turn.content, streaming.shown, turn.webSources);
    if (next.text) this.view.post({ type: 'delta', turnId: turn.id, text: next.text });
    streaming.shown = next.shown;
    // Past what the view shows of a text it takes no more of this reply: the pacer is told it has it all.
    return next.cut ? Number.POSITIVE_INFINITY : streaming.shown + streaming.reasoningShown;
  }
}
