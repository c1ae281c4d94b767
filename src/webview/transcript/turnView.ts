import type { Turn } from '../../shared/protocol';
import { append, el, iconButton } from '../dom';
import { questionDocuments } from '../composer/documentChips';
import { fillImageSlots, questionPictures } from '../render/pictureSlots';
import { icon, type IconName } from '../icons';
import { StreamingRenderer } from '../render/streamingRenderer';
import type { FragmentRenderer } from '../render/streamingTail';
import { format } from '../webviewStrings';
import { getAnswerFooter, replyFooter } from './turnFooter';
import { ReasoningSection } from './reasoningSection';
import { sourceLinks } from '../render/sourceLinks';
import { ruleChips } from '../composer/ruleChips';
import { webSourceList } from '../render/webSourceList';
import { cutNote, turnNotes, type TurnText } from './turnNotes';
import { explainedQuestion } from './explainedQuestion';

/** What a turn needs from the transcript around it. */
export interface TurnContext extends FragmentRenderer, TurnText {
  announce(text: string): void;
}

/**
 * Link reference definitions (`[id]: url`) affect links anywhere in the reply, so a reply that has
 * them cannot be kept as it was rendered block by block: it gets a full render when it finishes.
 */
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]\n]+\]:/m;

/**
 * Finished replies longer than this are drawn a slice per task, through the streaming renderer,
 * so that a huge reply (the protocol allows 2 MB) never freezes the view for seconds.
 */
const PROGRESSIVE_THRESHOLD = 150_000;
const PROGRESSIVE_SLICE = 32_000;

/** One turn of the transcript: its article element and, while a reply streams, its renderer. */
export class TurnView {
  readonly element: HTMLElement;
  private current: Turn;
  private streaming: StreamingRenderer | undefined;
  private progressiveTimer = 0;
  private regenerate: HTMLButtonElement | undefined;
  private reasoning: ReasoningSection | undefined;
  /** The reply waits for the account's stream: kept across redraws (a notice may redraw the turn meanwhile). */
  private waiting = false;

  constructor(
    turn: Turn,
    private readonly context: TurnContext,
  ) {
    this.current = turn;
    // Focusable from script only: Alt+↑ and Alt+↓ move between messages (transcript.ts).
    this.element = el('article', { className: `turn turn-${turn.role}`, attrs: { tabindex: '-1' } });
    this.render(turn);
  }

  get turn(): Turn {
    return this.current;
  }

  /** Appends streamed text; false when the turn is not streaming (the delta is then dropped). */
  appendDelta(text: string): boolean {
    if (!this.streaming) return false;
    this.reasoning?.answerStarted();
    this.streaming.append(text);
    return true;
  }

  /** While the reply waits for the account's stream, its placeholder says so instead of "thinking". */
  setWaiting(waiting: boolean): void {
    this.waiting = waiting;
    this.showWaiting();
  }

  private showWaiting(): void {
    const waiting = this.waiting && this.current.status === 'streaming';
    this.element.classList.toggle('waiting', waiting);
    const label = this.element.querySelector('.thinking-label');
    if (label) label.textContent = waiting ? this.context.strings.waitingForStream : this.context.strings.thinking;
  }

  /** Appends streamed reasoning; false when the turn is not streaming. */
  appendReasoning(text: string): boolean {
    if (!this.streaming) return false;
    if (!this.reasoning) {
      this.reasoning = new ReasoningSection('', this.context.strings, true);
      this.element.querySelector('.turn-body')?.before(this.reasoning.element);
    }
    this.reasoning.append(text);
    return true;
  }

  update(turn: Turn): void {
    const streaming = this.streaming;
    if (streaming && turn.status !== 'streaming' && streaming.text === turn.content && !REFERENCE_DEFINITION.test(turn.content)) {
      // The streamed DOM already is the final render but for the tail: keep it (and any selection in it).
      this.streaming = undefined;
      streaming.finish();
      this.current = turn;
      this.element.classList.remove('streaming');
      this.element.classList.toggle('is-error', turn.status === 'error');
      this.element.removeAttribute('aria-busy');
      const body = this.element.querySelector<HTMLElement>('.turn-body');
      if (body) fillImageSlots(body, turn.images ?? [], this.context.strings, true);
      this.reasoning?.answerStarted();
      this.element.querySelector('.web-sources')?.remove();
      if (turn.webSources?.length) body?.after(webSourceList(turn.webSources, this.context.strings));
      this.element.querySelector('.reply-rules')?.remove();
      if (turn.rules?.length) this.element.querySelector('.turn-notes')?.before(ruleChips(turn.rules, this.context.strings));
      this.element.querySelector('.turn-notes')?.replaceWith(turnNotes(turn, this.context));
      this.element.querySelector('.turn-footer')?.replaceWith(this.footer(turn));
      this.announceEnd(turn);
      return;
    }
    const wasStreaming = Boolean(streaming);
    this.render(turn);
    if (wasStreaming && turn.status !== 'streaming') this.announceEnd(turn);
  }

  /** Names the message for a screen reader: who wrote it, and where it is in the chat ("Your question, 2 of 5"). */
  setPosition(position: number, count: number): void {
    const { strings } = this.context;
    const label = this.current.role === 'user' ? format(strings.questionPosition, position, count) : format(strings.answerPosition, position, count);
    this.element.setAttribute('aria-label', label);
  }

  /** Shows or hides the × on each passage of this question's codebase context. */
  setSourcesRemovable(removable: boolean): void {
    for (const button of this.element.querySelectorAll<HTMLElement>('.remove-source')) button.hidden = !removable;
  }

  setRegenerateVisible(visible: boolean): void {
    if (this.regenerate) this.regenerate.hidden = !visible;
  }

  /** Shows or hides the Retry button of this reply's error. */
  setRetryVisible(visible: boolean): void {
    for (const button of this.element.querySelectorAll<HTMLElement>('[data-error-action="retry"]')) button.hidden = !visible;
  }

  dispose(): void {
    this.streaming?.dispose();
    this.streaming = undefined;
    window.clearTimeout(this.progressiveTimer);
    this.progressiveTimer = 0;
  }

  private render(turn: Turn): void {
    this.dispose();
    this.current = turn;
    const { strings } = this.context;
    const article = this.element;
    article.classList.toggle('streaming', turn.status === 'streaming');
    article.classList.toggle('is-error', turn.status === 'error');
    if (turn.status === 'streaming') article.setAttribute('aria-busy', 'true');
    else article.removeAttribute('aria-busy');

    if (turn.role === 'user') {
      article.replaceChildren();
      const header = this.header('account', strings.you);
      // A question shown cut cannot be edited: sending the edit would ask only the part shown.
      if (!turn.fullLength) {
        const edit = iconButton(icon('edit'), strings.editQuestion, 'edit-question');
        edit.dataset.turnAction = 'edit';
        header.appendChild(edit);
      }
      append(
        article,
        header,
        turn.explained ? explainedQuestion(turn.explained, this.context, strings) : null,
        turn.contextLabel && !turn.explained
          ? el(
              'div',
              { className: 'context-chip', attrs: { title: format(strings.context, turn.contextLabel) } },
              icon('openEditor'),
              el('span', { text: turn.contextLabel }),
            )
          : null,
        turn.explained ? null : el('div', { className: 'turn-body user-text', text: turn.content }),
        turn.sources?.length ? sourceLinks(turn.sources, strings) : null,
        turn.images?.length ? questionPictures(turn.images, strings) : null,
        turn.documents?.length ? questionDocuments(turn.documents, strings) : null,
        turn.fullLength ? cutNote(strings, 'question', turn.content.length, turn.fullLength) : null,
        turn.notice ? el('div', { className: 'turn-notice' }, icon('info'), el('span', { text: turn.notice })) : null,
        this.getAnswerFooter(),
      );
      return;
    }

    const body = el('div', { className: 'turn-body markdown' });
    const streaming = turn.status === 'streaming';
    this.reasoning = turn.reasoning ? new ReasoningSection(turn.reasoning, strings, streaming && !turn.content) : undefined;
    article.replaceChildren(
      this.header('sparkle', strings.assistant),
      this.reasoning?.element ?? '',
      body,
      turn.webSources?.length ? webSourceList(turn.webSources, strings) : '',
      turn.rules?.length ? ruleChips(turn.rules, strings) : '',
      el(
        'div',
        { className: 'thinking', attrs: { 'aria-hidden': 'true' } },
        el('span', { className: 'dots' }, el('span'), el('span'), el('span')),
        el('span', { className: 'thinking-label', text: strings.thinking }),
      ),
      turnNotes(turn, this.context),
      this.footer(turn),
    );
    this.showWaiting();
    if (turn.status === 'streaming') {
      this.streaming = new StreamingRenderer(body, this.context, turn.content);
    } else if (turn.content.length > PROGRESSIVE_THRESHOLD && !REFERENCE_DEFINITION.test(turn.content)) {
      this.renderProgressively(body, turn);
    } else {
      body.appendChild(this.context.renderFragment(turn.content, {}));
      fillImageSlots(body, turn.images ?? [], strings, true);
    }
  }

  private renderProgressively(body: HTMLElement, turn: Turn): void {
    const renderer = new StreamingRenderer(body, { ...this.context, announce: () => undefined }, '');
    this.element.classList.add('rendering');
    this.element.setAttribute('aria-busy', 'true');
    let done = 0;
    const step = () => {
      this.progressiveTimer = 0;
      renderer.append(turn.content.slice(done, done + PROGRESSIVE_SLICE));
      done += PROGRESSIVE_SLICE;
      if (done < turn.content.length) {
        renderer.flush();
        // A task per slice: input and messages are handled in between.
        this.progressiveTimer = window.setTimeout(step, 0);
        return;
      }
      renderer.finish();
      fillImageSlots(body, turn.images ?? [], this.context.strings, true);
      this.element.classList.remove('rendering');
      this.element.removeAttribute('aria-busy');
    };
    step();
  }

  private header(iconName: IconName, author: string): HTMLElement {
    return el(
      'div',
      { className: 'turn-header' },
      el('span', { className: 'avatar', attrs: { 'aria-hidden': 'true' } }, icon(iconName)),
      el('span', { className: 'turn-author', text: author }),
    );
  }

  /** The row of a reply's actions; its Regenerate is the one this view shows or hides. */
  private footer(turn: Turn): HTMLElement {
    const { footer, regenerate } = replyFooter(turn, this.context);
    if (regenerate) this.regenerate = regenerate;
    return footer;
  }

  /** The row of a question left without a reply, whose Get an answer takes Regenerate's place. */
  private getAnswerFooter(): HTMLElement {
    const { footer, regenerate } = getAnswerFooter(this.context.strings);
    this.regenerate = regenerate;
    return footer;
  }

  private announceEnd(turn: Turn): void {
    const { strings } = this.context;
    if (turn.status === 'error' && turn.error) this.context.announce(turn.error.message);
    else if (turn.status === 'stopped') this.context.announce(strings.stopped);
    else this.context.announce(strings.replyFinished);
  }
}
