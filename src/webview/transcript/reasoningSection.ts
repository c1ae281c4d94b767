import type { WebviewStrings } from '../../shared/strings';
import { el } from '../dom';

/**
 * A reasoning model's thinking, apart from its answer: a disclosure above the reply, open while
 * the model thinks and closed once the answer begins (unless the user opened or closed it
 * themselves), expandable later. Plain text: it is never rendered as markup, and Copy reply and
 * Export leave it out (they read the answer only).
 */
export class ReasoningSection {
  readonly element: HTMLDetailsElement;
  private readonly text: HTMLElement;
  private readonly summary: HTMLElement;
  /** The user toggled it: from then on it stays as they left it. */
  private chosen = false;

  constructor(
    reasoning: string,
    private readonly strings: WebviewStrings,
    live: boolean,
  ) {
    this.summary = el('summary', { text: live ? strings.reasoningLive : strings.reasoningDone });
    this.text = el('div', { className: 'reasoning-text', text: reasoning });
    this.element = el('details', { className: 'reasoning', attrs: { 'aria-label': strings.reasoningLabel } }, this.summary, this.text);
    this.element.open = live;
    this.summary.addEventListener('click', () => {
      this.chosen = true;
    });
  }

  append(text: string): void {
    this.text.append(text);
  }

  /** The answer began, or the reply ended: the thinking folds away. */
  answerStarted(): void {
    this.summary.textContent = this.strings.reasoningDone;
    if (!this.chosen) this.element.open = false;
  }
}
