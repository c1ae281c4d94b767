/**
 * Finds, in the text of a reply still streaming, the end of the part that is made of complete
 * top-level markdown blocks: everything before `boundary` renders the same on its own as it does
 * as part of the whole reply, so it is rendered once and never touched again.
 *
 * The text is pushed in the pieces it arrives in, and each piece is looked at once: the work over
 * a whole reply is linear, and no frame searches the text received before it. A boundary is the
 * start of a line at column 0, outside any code fence, that
 * - follows a blank line (except a list item continuing a list: splitting it would split the list;
 *   the line's first character tells when it cannot be one),
 * - or starts an ATX heading or a code fence (both can interrupt a paragraph or a list),
 * - or follows an ATX heading, or the closing line of a code fence that opened at column 0.
 * It is conservative: when in doubt it does not split, which only delays formatting.
 * (Link reference definitions can reach back across blocks; the view does a full render for them.)
 */
export class BlockScanner {
  /** End of the complete blocks (start of the unfinished rest). */
  boundary = 0;
  /** In a code fence whose opening line is complete. */
  inFence = false;
  /** The open fence started at column 0 (so it is a top-level block). */
  fenceAtColumnZero = false;
  /** Where the open fence's opening line starts. */
  fenceStart = 0;
  /** Where the open fence's content starts (after its opening line). */
  fenceContentStart = 0;
  /** The open fence's info string (its language). */
  fenceInfo = '';
  /** The last fence at column 0 that closed: where it starts, where its content starts and ends, where it ends. */
  closedFence: { start: number; contentStart: number; contentEnd: number; end: number } | undefined;
  /** Length of all the text pushed so far. */
  private length = 0;
  /** The unfinished last line, and where it starts. */
  private partialLine = '';
  private lineStart = 0;
  private fenceChar = '';
  private fenceLength = 0;
  private previousBlank = true;
  private inList = false;

  /** Takes the next piece of the text; returns the boundary after it. */
  push(chunk: string): number {
    let from = 0;
    for (let end = chunk.indexOf('\n'); end !== -1; end = chunk.indexOf('\n', from)) {
      const next = this.length + end + 1;
      const text = this.partialLine + chunk.slice(from, end);
      this.line(text.endsWith('\r') ? text.slice(0, -1) : text, this.lineStart, next);
      this.partialLine = '';
      this.lineStart = next;
      from = end + 1;
    }
    if (from < chunk.length) this.partialLine += from === 0 ? chunk : chunk.slice(from);
    this.length += chunk.length;
    this.startsBlock();
    return this.boundary;
  }

  /**
   * After a blank line, the first character of the next line can already tell that a new block
   * starts there (anything at column 0 that cannot continue a list), so the block before it is
   * complete without waiting for the rest of that line.
   */
  private startsBlock(): void {
    if (this.inFence || !this.previousBlank || this.lineStart <= this.boundary) return;
    const first = this.partialLine[0];
    if (first === undefined || first === ' ' || first === '\t' || first === '\r') return;
    if (this.inList && /[*+\-\d]/.test(first)) return;
    this.boundary = this.lineStart;
  }

  private line(text: string, start: number, next: number): void {
    if (this.inFence) {
      const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(text);
      if (close && close[1][0] === this.fenceChar && close[1].length >= this.fenceLength) {
        this.inFence = false;
        if (this.fenceAtColumnZero) {
          this.boundary = next;
          this.closedFence = { start: this.fenceStart, contentStart: this.fenceContentStart, contentEnd: start, end: next };
        }
      }
      this.previousBlank = false;
      return;
    }
    if (!/\S/.test(text)) {
      this.previousBlank = true;
      return;
    }
    const columnZero = !/^[ \t]/.test(text);
    const listItem = /^ {0,3}([*+-]|\d{1,9}[.)])([ \t]|$)/.test(text);
    const heading = /^#{1,6}([ \t]|$)/.test(text);
    const fence = /^( {0,3})(`{3,}|~{3,})(.*)$/.exec(text);
    const opensFence = fence !== null && !(fence[2][0] === '`' && fence[3].includes('`'));

    if (columnZero && start > this.boundary) {
      const afterBlank = this.previousBlank && !(listItem && this.inList);
      if (afterBlank || heading || opensFence) this.boundary = start;
    }
    if (listItem) this.inList = true;
    else if (columnZero && (this.previousBlank || heading || opensFence)) this.inList = false;

    if (opensFence && fence) {
      this.inFence = true;
      this.fenceChar = fence[2][0];
      this.fenceLength = fence[2].length;
      this.fenceAtColumnZero = fence[1].length === 0;
      this.fenceStart = start;
      this.fenceContentStart = next;
      this.fenceInfo = fence[3];
    } else if (heading) {
      this.boundary = next;
    }
    this.previousBlank = false;
  }
}
