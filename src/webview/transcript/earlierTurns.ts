import type { WebviewStrings } from '../../shared/strings';
import { textButton } from '../dom';
import { format } from '../webviewStrings';

/** Scrolled closer than this to the top, the page before is asked for: it is there before the user reaches the top. */
const NEAR_TOP_PX = 600;

/**
 * The turns that come before those the view holds. The host sends a long conversation a page at a
 * time, the newest first; scrolling near the top asks for the page before, and so does the "Show
 * earlier messages" button above the oldest turn (for the keyboard and screen readers). A page is
 * put in above what is on screen without moving it.
 */
export class EarlierTurns {
  readonly button: HTMLButtonElement;
  private count = 0;
  /** Asked for, not arrived yet: one page at a time. */
  private pending = false;
  private shown = true;

  constructor(
    private readonly scroller: HTMLElement,
    private readonly strings: WebviewStrings,
    /** Asks the host for the page before the oldest turn; false when there is no turn to ask before. */
    private readonly request: () => boolean,
  ) {
    this.button = textButton('', 'button secondary load-earlier');
    this.button.hidden = true;
    this.button.addEventListener('click', () => this.ask());
    scroller.addEventListener('scroll', () => this.askIfNearTop(), { passive: true });
  }

  /** How many turns come before those the view holds (with a new state, or a page put in; none: as before). */
  set(count = this.count): void {
    this.count = count;
    this.pending = false;
    this.render();
    // Once the view has scrolled where it goes (the bottom, or where the user was; the transcript
    // follows the bottom after layout, so a frame later): a page that does not fill the view asks
    // for the one before at once, as no scroll will.
    requestAnimationFrame(() => requestAnimationFrame(() => this.askIfNearTop()));
  }

  /** The transcript is hidden (no key): so is the button. */
  setShown(shown: boolean): void {
    this.shown = shown;
    this.render();
  }

  /** Runs `insert`, which puts turns in above the others, keeping what is on screen where it is. */
  keepInPlace(insert: () => void): void {
    const fromBottom = this.scroller.scrollHeight - this.scroller.scrollTop;
    insert();
    this.scroller.scrollTop = this.scroller.scrollHeight - fromBottom;
  }

  private askIfNearTop(): void {
    if (this.shown && this.scroller.scrollTop < NEAR_TOP_PX) this.ask();
  }

  private ask(): void {
    if (this.pending || this.count === 0 || !this.request()) return;
    this.pending = true;
    this.render();
  }

  private render(): void {
    const hidden = this.count === 0 || !this.shown;
    // The last page came in while the button had the focus: the keyboard goes on from the transcript.
    if (hidden && document.activeElement === this.button) this.scroller.focus({ preventScroll: true });
    this.button.hidden = hidden;
    this.button.setAttribute('aria-disabled', String(this.pending));
    const label = this.pending ? this.strings.earlierLoading : format(this.strings.earlierMessages, this.count);
    this.button.replaceChildren(document.createTextNode(label));
  }
}
