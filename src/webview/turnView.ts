import { LIMITS, type Turn } from '../shared/protocol';
import { ACTION_LABELS, type WebviewStrings } from '../shared/strings';
import { append, el, iconButton, textButton } from './dom';
import { fillImageSlots, withoutImageMarkers } from './images';
import { icon, type IconName } from './icons';
import { StreamingRenderer } from './streamingRenderer';
import type { FragmentRenderer } from './streamingTail';
import { format } from './strings';

/** What a turn needs from the transcript around it. */
export interface TurnContext extends FragmentRenderer {
  strings: WebviewStrings;
  announce(text: string): void;
  numbers: Intl.NumberFormat;
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

  constructor(
    turn: Turn,
    private readonly context: TurnContext,
  ) {
    this.current = turn;
    this.element = el('article', { className: `turn turn-${turn.role}` });
    this.render(turn);
  }

  get turn(): Turn {
    return this.current;
  }

  /** Appends streamed text; false when the turn is not streaming (the delta is then dropped). */
  appendDelta(text: string): boolean {
    if (!this.streaming) return false;
    this.streaming.append(text);
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
      this.element.querySelector('.turn-notes')?.replaceWith(this.notes(turn));
      this.element.querySelector('.turn-footer')?.replaceWith(this.footer(turn));
      this.announceEnd(turn);
      return;
    }
    const wasStreaming = Boolean(streaming);
    this.render(turn);
    if (wasStreaming && turn.status !== 'streaming') this.announceEnd(turn);
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
        turn.contextLabel
          ? el(
              'div',
              { className: 'context-chip', attrs: { title: format(strings.context, turn.contextLabel) } },
              icon('openEditor'),
              el('span', { text: turn.contextLabel }),
            )
          : null,
        el('div', { className: 'turn-body user-text', text: turn.content }),
        turn.fullLength ? this.cutNote(strings.questionCut, turn.content.length, turn.fullLength) : null,
        turn.notice ? el('div', { className: 'turn-notice' }, icon('info'), el('span', { text: turn.notice })) : null,
        this.getAnswerFooter(),
      );
      return;
    }

    const body = el('div', { className: 'turn-body markdown' });
    article.replaceChildren(
      this.header('sparkle', strings.assistant),
      body,
      el(
        'div',
        { className: 'thinking', attrs: { 'aria-hidden': 'true' } },
        el('span', { className: 'dots' }, el('span'), el('span'), el('span')),
        el('span', { text: strings.thinking }),
      ),
      this.notes(turn),
      this.footer(turn),
    );
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

  /** Why the reply ended, when that is worth saying: stopped, cut off, filtered, interrupted, or failed. */
  private notes(turn: Turn): HTMLElement {
    const { strings } = this.context;
    const notes = el('div', { className: 'turn-notes' });
    if (turn.fullLength) notes.appendChild(this.cutNote(strings.replyCut, turn.content.length, turn.fullLength));
    if (turn.moreImages)
      notes.appendChild(note('info', format(strings.morePictures, this.context.numbers.format(turn.moreImages), LIMITS.imagesPerTurn), 'note-more-pictures'));
    if (turn.omittedMessages) notes.appendChild(note('info', format(strings.contextShortened, turn.omittedMessages), 'note-info'));
    if (turn.status === 'stopped') notes.appendChild(note('stop', strings.stopped, 'note-stopped'));
    if (turn.status !== 'streaming' && turn.finishReason === 'length') notes.appendChild(note('warning', strings.finishLength, 'note-warning'));
    if (turn.status !== 'streaming' && turn.finishReason === 'blacklist') notes.appendChild(note('info', strings.finishBlacklist, 'note-info'));
    if (turn.status !== 'streaming' && turn.finishReason === 'error') notes.appendChild(note('warning', strings.finishError, 'note-warning'));
    // What went wrong after the text arrived (a picture that could not be downloaded).
    if (turn.notice) notes.appendChild(note('warning', turn.notice, 'note-warning'));
    // What arrived before the failure stays, and says it is only part of the reply.
    if (turn.status === 'error' && turn.content) notes.appendChild(note('warning', strings.replyIncomplete, 'note-incomplete'));
    if (turn.status === 'error' && turn.error) {
      const { error } = turn;
      notes.appendChild(
        el(
          'div',
          { className: `turn-error error-${error.kind.replace(/[^\w-]/g, '')}` },
          icon('error', 'icon error-icon'),
          el(
            'div',
            { className: 'error-content' },
            el('div', { className: 'error-message', text: error.message }),
            error.requestId ? el('div', { className: 'request-id', text: format(strings.requestId, error.requestId) }) : null,
            error.actions.length > 0
              ? el(
                  'div',
                  { className: 'error-actions' },
                  ...error.actions.map((action, index) => {
                    const button = el('button', {
                      className: index === 0 ? 'button primary' : 'button secondary',
                      text: strings[ACTION_LABELS[action]],
                      attrs: { type: 'button', 'data-error-action': action },
                    });
                    return button;
                  }),
                )
              : null,
          ),
        ),
      );
    }
    return notes;
  }

  /** A text shown cut: how much of it, and where to get the rest. */
  private cutNote(template: string, shown: number, whole: number): HTMLElement {
    const { numbers } = this.context;
    return note('info', format(template, numbers.format(shown), numbers.format(whole)), 'note-cut');
  }

  private footer(turn: Turn): HTMLElement {
    const { strings, numbers } = this.context;
    const footer = el('div', { className: 'turn-footer' });
    if (turn.role !== 'assistant' || turn.status === 'streaming') return footer;
    if (turn.usage) {
      const { promptTokens, completionTokens, totalTokens, precachedTokens = 0 } = turn.usage;
      const details = format(
        strings.usageDetails,
        numbers.format(promptTokens),
        numbers.format(completionTokens),
        numbers.format(precachedTokens),
        numbers.format(totalTokens),
      );
      footer.appendChild(
        el('span', {
          className: 'usage',
          text: format(strings.tokens, numbers.format(totalTokens)),
          attrs: { title: details, 'aria-label': details, role: 'note' },
        }),
      );
    }
    const actions = el('div', { className: 'turn-actions' });
    // A reply that is only a picture has no text to copy (the picture has its own buttons).
    if (withoutImageMarkers(turn.content).trim()) {
      const copy = iconButton(icon('copy'), strings.copyReply, 'copy-reply');
      copy.dataset.turnAction = 'copy';
      actions.appendChild(copy);
    }
    this.regenerate = iconButton(icon('refresh'), strings.regenerate, 'regenerate');
    this.regenerate.dataset.turnAction = 'regenerate';
    this.regenerate.hidden = true;
    actions.appendChild(this.regenerate);
    footer.appendChild(actions);
    return footer;
  }

  /**
   * A message can be left without a reply: one sent while another reply was being written waits
   * for it, and is not answered if the user moves to another chat meanwhile. Its button asks for
   * the reply (shown only while it is the last turn and nothing runs, like Regenerate).
   */
  private getAnswerFooter(): HTMLElement {
    this.regenerate = textButton(this.context.strings.getAnswer, 'button secondary', icon('send'));
    this.regenerate.dataset.turnAction = 'regenerate';
    this.regenerate.hidden = true;
    return el('div', { className: 'turn-footer' }, this.regenerate);
  }

  private announceEnd(turn: Turn): void {
    const { strings } = this.context;
    if (turn.status === 'error' && turn.error) this.context.announce(turn.error.message);
    else if (turn.status === 'stopped') this.context.announce(strings.stopped);
    else this.context.announce(strings.replyFinished);
  }
}

function note(iconName: IconName, text: string, className: string): HTMLElement {
  return el('div', { className: `turn-note ${className}` }, icon(iconName), el('span', { text }));
}
