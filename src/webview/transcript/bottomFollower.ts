import { iconButton } from '../dom';
import { icon } from '../icons';
import { saveState, type PersistedState } from '../vscodeApi';

/** Closer than this to the bottom counts as "at the bottom" (fractional scroll positions, zoom). */
const BOTTOM_SLACK_PX = 16;

const SCROLL_UP_KEYS = new Set(['ArrowUp', 'PageUp', 'Home']);

/**
 * Keeps the bottom of a scrolling transcript in view while it grows (a reply streaming, images
 * decoding), unless the user scrolled up; then a Jump to latest button brings them back. The scroll
 * position is saved in the webview state once scrolling pauses.
 */
export class BottomFollower {
  readonly jump: HTMLButtonElement;
  private pinned = true;
  private saveScrollTimer = 0;
  private lastScroll = 0;
  /** Whether the view scrolled itself to keep the newest text in view (until that scroll's event). */
  private followed = false;

  /** `content`: what grows inside `scroller`. */
  constructor(
    private readonly scroller: HTMLElement,
    content: HTMLElement,
    jumpLabel: string,
  ) {
    this.jump = iconButton(icon('arrowDown'), jumpLabel, 'jump-to-latest');
    this.jump.hidden = true;
    this.jump.addEventListener('click', () => {
      // The button hides itself at the bottom: focus stays in the transcript, where the keys go on scrolling.
      if (document.activeElement === this.jump) this.scroller.focus({ preventScroll: true });
      this.pinned = true;
      this.scrollToBottom();
      this.updateJump();
    });
    this.scroller.addEventListener('scroll', () => this.onScroll(), { passive: true });
    // Scrolling up (wheel, keys, or the scroll bar, which is the scroller itself under the pointer)
    // unpins at once, before a frame of new text could pull the view back down.
    this.scroller.addEventListener(
      'wheel',
      (event) => {
        if (event.deltaY < 0) this.pinned = false;
      },
      { passive: true },
    );
    this.scroller.addEventListener('keydown', (event) => {
      if (SCROLL_UP_KEYS.has(event.key)) this.pinned = false;
    });
    this.scroller.addEventListener('pointerdown', (event) => {
      if (event.target === this.scroller) this.pinned = false;
    });
    // Growth of the transcript (streaming text, images decoding) or a smaller viewport (the input grew)
    // is seen after layout, before paint: keeping the bottom in view here costs no extra layout.
    // Reads the geometry once and writes at most once, so no layout is forced on a streaming frame.
    const resize = new ResizeObserver(() => {
      const { scrollTop, scrollHeight, clientHeight } = this.scroller;
      const bottom = scrollHeight - clientHeight;
      if (this.pinned && Math.abs(bottom - scrollTop) >= 1) {
        this.scroller.scrollTop = bottom;
        this.followed = true;
      }
      this.updateJump(scrollHeight, clientHeight);
    });
    resize.observe(content);
    resize.observe(this.scroller);
  }

  /** Sending a message means wanting to see the answer: follow the bottom again. */
  pin(): void {
    this.pinned = true;
  }

  /** Puts the scroll position back after the view was hidden and shown again. */
  restore(state: PersistedState): void {
    if (state.pinned === false && state.scrollTop !== undefined) {
      this.pinned = false;
      this.scroller.scrollTop = state.scrollTop;
    } else {
      this.pinned = true;
      this.scrollToBottom();
    }
    this.updateJump();
  }

  private onScroll(): void {
    const followed = this.followed;
    this.followed = false;
    // Saved once scrolling has paused; a timer already pending will save the newest position anyway
    // (while a reply streams, the view scrolls every frame: no timer churn per frame).
    this.lastScroll = performance.now();
    if (this.saveScrollTimer === 0) this.scheduleSaveScroll(150);
    // The scroll that keeps a streaming reply in view changes nothing here, and by the time its event
    // comes the next frame's text may be in the page: reading the geometry would force a layout.
    if (followed && this.pinned) return;
    const { scrollTop, scrollHeight, clientHeight } = this.scroller;
    this.pinned = scrollHeight - scrollTop - clientHeight <= BOTTOM_SLACK_PX;
    this.updateJump(scrollHeight, clientHeight);
  }

  private scheduleSaveScroll(delay: number): void {
    this.saveScrollTimer = window.setTimeout(() => {
      const quiet = performance.now() - this.lastScroll;
      if (quiet < 150) {
        this.scheduleSaveScroll(150 - quiet);
        return;
      }
      this.saveScrollTimer = 0;
      saveState({ scrollTop: this.scroller.scrollTop, pinned: this.pinned });
    }, delay);
  }

  private scrollToBottom(): void {
    this.scroller.scrollTop = this.scroller.scrollHeight;
  }

  private updateJump(scrollHeight = this.scroller.scrollHeight, clientHeight = this.scroller.clientHeight): void {
    const scrollable = scrollHeight - clientHeight > BOTTOM_SLACK_PX;
    const hidden = this.pinned || !scrollable;
    if (this.jump.hidden !== hidden) this.jump.hidden = hidden;
  }
}
