import { BlockScanner } from './blockScanner';
import { hasImageMarkers } from './pictureSlots';
import { MathBudget, readableText } from './mathTypeset';
import { StreamingTail, type FragmentRenderer } from './streamingTail';

/**
 * Draws a reply while it streams, at most once per animation frame, with work proportional to the
 * new text rather than to the whole reply:
 * - each complete top-level block (see BlockScanner) is rendered once, with highlighting, exactly
 *   as in a render of the whole reply, and never touched again;
 * - the block still growing is drawn as it grows, with work bounded by its size (see StreamingTail);
 * - at the end the last block is rendered too, so the finished DOM is the same as rendering the
 *   whole reply at once.
 * Messages only queue their text; the one pending frame draws all of it.
 */

export interface StreamingDeps extends FragmentRenderer {
  /** Text of newly completed blocks, for the screen reader live region. */
  announce(text: string): void;
}

/** Text that markdown-it renders as nothing (blank lines between blocks). */
const BLANK = /^[ \t\r\n]*$/;

export class StreamingRenderer {
  /** Everything drawn so far. Only appended to while streaming (joined when it is read). */
  private source = '';
  private pending = '';
  private frame = 0;
  private readonly scanner = new BlockScanner();
  /** Where the unfinished rest of the reply starts, and that rest. */
  private committedEnd = 0;
  private tailText = '';
  private readonly tail: StreamingTail;
  /** The reply's formulas, block by block: the unfinished block may show what is left, not spend it. */
  private readonly mathBudget = new MathBudget();

  constructor(
    private readonly body: HTMLElement,
    private readonly deps: StreamingDeps,
    initial: string,
  ) {
    this.tail = new StreamingTail(body, {
      ...deps,
      renderFragment: (source, options) => deps.renderFragment(source, { ...options, mathBudget: this.mathBudget.copy() }),
    });
    this.pending = initial;
    this.draw();
  }

  /** The whole text received so far. */
  get text(): string {
    return this.source + this.pending;
  }

  append(text: string): void {
    if (text === '') return;
    this.pending += text;
    if (this.frame === 0) this.frame = requestAnimationFrame(() => this.draw());
  }

  /** Draws what has arrived now rather than at the next frame. */
  flush(): void {
    this.cancelFrame();
    this.draw();
  }

  /** Draws everything received, the last block rendered and highlighted: the reply is complete. */
  finish(): void {
    this.cancelFrame();
    this.take();
    this.commit(this.tailText.length);
    this.tail.clear();
  }

  dispose(): void {
    this.cancelFrame();
  }

  private cancelFrame(): void {
    if (this.frame !== 0) cancelAnimationFrame(this.frame);
    this.frame = 0;
  }

  private draw(): void {
    this.frame = 0;
    const chunk = this.take();
    if (chunk === '') return;
    const boundary = this.scanner.push(chunk);
    if (boundary > this.committedEnd) {
      this.commit(boundary - this.committedEnd);
      this.showTail();
    } else if (this.opensCodeBlock() && !this.tail.isCode) {
      this.showTail();
    } else {
      this.tail.update(this.tailText, chunk);
    }
  }

  /** Moves the pending text to the drawn text. */
  private take(): string {
    const chunk = this.pending;
    this.pending = '';
    this.source += chunk;
    this.tailText += chunk;
    return chunk;
  }

  /** Renders the first `length` characters of the tail for good, before what shows the tail now. */
  private commit(length: number): void {
    length -= this.keepCompletedFence(length);
    if (length === 0) return;
    const text = this.tailText.slice(0, length);
    this.tailText = this.tailText.slice(length);
    this.committedEnd += length;
    if (BLANK.test(text)) return;
    const fragment = this.deps.renderFragment(text, { mathBudget: this.mathBudget });
    this.deps.announce(readableText(fragment));
    this.body.insertBefore(fragment, this.tail.first);
  }

  /**
   * When the tail shows a code fence that is now closed (within the first `length` characters), the
   * block it shows is kept and only its code highlighted, rather than the fence rendered again.
   * Returns the length of the fence so committed (0 when it was not).
   */
  private keepCompletedFence(length: number): number {
    const fence = this.scanner.closedFence;
    if (!this.tail.isCode || fence?.start !== this.committedEnd) return 0;
    const fenceLength = fence.end - this.committedEnd;
    if (fenceLength > length) return 0;
    const code = this.tailText.slice(fence.contentStart - this.committedEnd, fence.contentEnd - this.committedEnd);
    // markdown-it turns \r\n into \n and NUL into U+FFFD, and a picture's marker in code is its own case: render those.
    if (/[\r\0]/.test(code) || hasImageMarkers(code)) return 0;
    this.tailText = this.tailText.slice(fenceLength);
    this.committedEnd = fence.end;
    this.deps.announce(this.tail.completeFence(code));
    return fenceLength;
  }

  /** Whether the tail is a code fence at column 0 whose opening line is complete. */
  private opensCodeBlock(): boolean {
    const { scanner } = this;
    return scanner.inFence && scanner.fenceAtColumnZero && scanner.fenceStart === this.committedEnd;
  }

  /** Draws the tail from scratch (after the blocks before it were committed). */
  private showTail(): void {
    const { scanner } = this;
    if (this.opensCodeBlock()) {
      this.tail.showFence(scanner.fenceInfo, this.tailText.slice(scanner.fenceContentStart - this.committedEnd));
    } else {
      this.tail.showText(this.tailText);
    }
  }
}
