import type { Turn } from '../../shared/protocol';
import type { WebviewStrings } from '../../shared/strings';
import type { Announcer } from '../announcer';
import { BottomFollower } from './bottomFollower';
import { el } from '../dom';
import { EarlierTurns } from './earlierTurns';
import { createFragmentRenderer } from '../render/fragments';
import { TurnView, type TurnContext } from './turnView';
import { format } from '../webviewStrings';
import { delegateClicks } from './transcriptClicks';
import type { PersistedState } from '../vscodeApi';
import { emptyState, welcomeScreen } from '../welcome';

/** What the view knows of the turns before those it holds. */
export interface Earlier {
  /** How many there are. */
  turns: number;
  /** Their questions, oldest first (the newest of them only), for ↑ in the input. */
  questions: readonly string[];
}

/**
 * The scrolling list of turns, plus the welcome and empty screens that take its place. Stays at
 * the bottom while a reply streams, unless the user scrolled up (`BottomFollower`), and handles
 * every click inside replies by delegation (`transcriptClicks.ts`). A long conversation comes a
 * page at a time: earlier pages are asked for as the user scrolls up (`EarlierTurns`).
 */
export class Transcript {
  readonly element: HTMLElement;
  private readonly list: HTMLElement;
  private readonly welcome: HTMLElement;
  private readonly empty: HTMLElement;
  private readonly follower: BottomFollower;
  private readonly earlier: EarlierTurns;
  private earlierQuestions: readonly string[] = [];
  /** How many turns of the conversation come before those shown: they count in each message's position. */
  private earlierCount = 0;
  private readonly context: TurnContext;
  private views: TurnView[] = [];
  private readonly byId = new Map<string, TurnView>();
  private busy = false;
  private hasKey = true;
  /** The question being edited in the input, marked (and the turns it would replace dimmed). */
  private editingId?: string;

  constructor(
    private readonly strings: WebviewStrings,
    private readonly announcer: Announcer,
    usePrompt: (text: string) => void,
    focusInput: () => void,
    /** A question's Edit button: the composer takes it over. */
    editQuestion: (turn: Turn) => void,
    /** Asks the host for the page of turns before this one. */
    loadEarlier: (before: string) => void,
  ) {
    this.context = {
      ...createFragmentRenderer(strings),
      strings,
      announce: (text) => announcer.announce(text),
    };

    this.list = el('section', { className: 'transcript' });
    this.welcome = welcomeScreen(strings);
    this.empty = emptyState(strings, usePrompt);
    // In the tab order, so the keyboard can scroll it (arrows, Page Up/Down, Home/End); a labelled
    // region, so a screen reader says what got focus.
    const scroller = el('div', {
      className: 'scroller',
      attrs: { tabindex: '0', role: 'region', 'aria-label': strings.transcriptLabel },
    });
    this.earlier = new EarlierTurns(scroller, strings, () => {
      const oldest = this.views[0]?.turn.id;
      if (oldest !== undefined) loadEarlier(oldest);
      return oldest !== undefined;
    });
    scroller.append(this.welcome, this.empty, this.earlier.button, this.list);
    this.follower = new BottomFollower(scroller, this.list, strings.jumpToLatest);
    this.element = el('main', { className: 'transcript-pane' }, scroller, this.follower.jump);

    delegateClicks(this.list, {
      strings,
      announce: (text) => announcer.announce(text),
      turnOf: (target) => this.views.find((view) => view.element.contains(target))?.turn,
      editQuestion,
      focusInput,
    });
    this.updateScreens();
  }

  /** Replaces the whole transcript (the `state` message): the conversation's newest turns. */
  setTurns(turns: readonly Turn[], busy: boolean, earlier: Earlier): void {
    for (const view of this.views) view.dispose();
    this.views = turns.map((turn) => new TurnView(turn, this.context));
    this.byId.clear();
    for (const view of this.views) this.byId.set(view.turn.id, view);
    this.list.replaceChildren(...this.views.map((view) => view.element));
    this.markEditing(this.editingId);
    this.busy = busy;
    this.announcer.clear();
    this.setEarlier(earlier);
    this.afterChange();
  }

  /** Puts in the page of turns that comes before `before`, if that is still the oldest turn shown. */
  prependPage(before: string, turns: readonly Turn[], earlier: Earlier): void {
    if (this.views[0]?.turn.id !== before) {
      this.earlier.set(); // a page for a transcript since redrawn: asked for again, before the oldest turn now
      return;
    }
    const views = turns.filter((turn) => !this.byId.has(turn.id)).map((turn) => new TurnView(turn, this.context));
    for (const view of views) this.byId.set(view.turn.id, view);
    this.views = [...views, ...this.views];
    this.earlier.keepInPlace(() => this.list.prepend(...views.map((view) => view.element)));
    this.markEditing(this.editingId);
    this.setEarlier(earlier);
    this.nameMessages();
    this.announcer.announce(format(this.strings.earlierLoaded, views.length));
  }

  add(turn: Turn): void {
    const existing = this.byId.get(turn.id);
    if (existing) {
      existing.update(turn);
    } else {
      const view = new TurnView(turn, this.context);
      this.views.push(view);
      this.byId.set(turn.id, view);
      this.list.appendChild(view.element);
      // Sending a message means wanting to see the answer.
      if (turn.role === 'user') this.follower.pin();
    }
    this.afterChange();
  }

  delta(turnId: string, text: string): void {
    const view = this.byId.get(turnId);
    if (!view?.appendDelta(text)) console.warn('[gigachat] delta for a turn that is not streaming:', turnId);
  }

  /** The reply `turnId` waits for the account's stream, or no longer. */
  waiting(turnId: string, waiting: boolean): void {
    this.byId.get(turnId)?.setWaiting(waiting);
  }

  reasoningDelta(turnId: string, text: string): void {
    if (!this.byId.get(turnId)?.appendReasoning(text)) console.warn('[gigachat] reasoning for a turn that is not streaming:', turnId);
  }

  update(turn: Turn): void {
    const view = this.byId.get(turn.id);
    if (!view) {
      this.add(turn);
      return;
    }
    view.update(turn);
    this.afterChange();
  }

  /**
   * The questions of the chat shown, oldest first (a question asked twice in a row, once): those of
   * the turns before the ones shown too. A question shown cut is left out: it would be asked cut.
   */
  questions(): string[] {
    const questions: string[] = [];
    const shown = this.views.filter(({ turn }) => turn.role === 'user' && !turn.fullLength).map(({ turn }) => turn.content);
    for (const question of [...this.earlierQuestions, ...shown]) {
      if (question !== questions.at(-1)) questions.push(question);
    }
    return questions;
  }

  /** Marks the question being edited (none: `undefined`); the turns after it are what sending would replace. */
  markEditing(turnId: string | undefined): void {
    this.editingId = turnId;
    this.list.classList.toggle('editing', turnId !== undefined);
    for (const view of this.views) view.element.classList.toggle('being-edited', view.turn.id === turnId);
  }

  setBusy(busy: boolean): void {
    this.busy = busy;
    this.updateRegenerate();
  }

  setHasKey(hasKey: boolean): void {
    this.hasKey = hasKey;
    this.updateScreens();
  }

  /** Puts the scroll position back after the view was hidden and shown again. */
  restoreScroll(state: PersistedState): void {
    this.follower.restore(state);
  }

  /**
   * Alt+↑ and Alt+↓: focus goes to the message before or after the one it is in; from outside the
   * messages (the input), Alt+↑ goes to the last one. False when there is nowhere to go.
   */
  focusMessage(step: -1 | 1): boolean {
    if (this.list.hidden || this.views.length === 0) return false;
    const index = this.views.findIndex((view) => view.element.contains(document.activeElement));
    if (index < 0 && step > 0) return false;
    const target = this.views[index < 0 ? this.views.length - 1 : Math.min(Math.max(index + step, 0), this.views.length - 1)];
    target.element.focus({ preventScroll: true });
    target.element.scrollIntoView({ block: 'nearest' });
    return true;
  }

  private setEarlier(earlier: Earlier): void {
    this.earlierCount = earlier.turns;
    this.earlierQuestions = earlier.questions;
    this.earlier.set(earlier.turns);
  }

  private afterChange(): void {
    this.updateScreens();
    this.updateRegenerate();
    this.nameMessages();
  }

  /** Each message says who wrote it and where it is among all of the chat's, those not loaded yet included. */
  private nameMessages(): void {
    const count = this.earlierCount + this.views.length;
    this.views.forEach((view, index) => view.setPosition(this.earlierCount + index + 1, count));
  }

  private updateScreens(): void {
    const hasTurns = this.views.length > 0;
    this.welcome.hidden = this.hasKey;
    this.empty.hidden = !this.hasKey || hasTurns;
    this.list.hidden = !this.hasKey || !hasTurns;
    this.earlier.setShown(!this.list.hidden);
  }

  /**
   * Regenerate, and an error's Retry, are offered on the last reply only, once it is finished and
   * nothing else is running: asking again for an older reply would replace the newer ones. A
   * message left without a reply at the end gets its Get an answer button on the same terms.
   */
  private updateRegenerate(): void {
    const last = this.views.at(-1);
    for (const view of this.views) {
      const { turn } = view;
      const askAgain = view === last && turn.status !== 'streaming' && !this.busy;
      const hasRetry = turn.status === 'error' && turn.error?.actions.includes('retry');
      view.setRegenerateVisible(askAgain && !hasRetry);
      view.setRetryVisible(askAgain && turn.role === 'assistant');
    }
    // The last question's passages, once its reply is done: taking one out asks again without it.
    const question = this.views.at(-2);
    for (const view of this.views) view.setSourcesRemovable(view === question && last?.turn.status !== 'streaming' && !this.busy);
  }
}
