/**
 * Finds, in the text of a reply still streaming, the end of the part that is made of complete
 * top-level markdown blocks: everything before `boundary` renders the same on its own as it does
 * as part of the whole reply, so it is rendered once and never touched again while the rest (the
 * tail) is re-rendered as text arrives.
 *
 * It looks only at complete lines, once each, so the cost over a whole reply is linear. A boundary
 * is the start of a line at column 0, outside any code fence, that
 * - follows a blank line (except a list item continuing a list: splitting it would split the list),
 * - or starts an ATX heading or a code fence (both can interrupt a paragraph or a list),
 * - or follows an ATX heading, or the closing line of a code fence that opened at column 0.
 * It is conservative: when in doubt it does not split, which only costs re-rendering.
 * (Link reference definitions can reach back across blocks; the view does a full render for them.)
 */
export class BlockScanner {
  /** End of the committed text (start of the tail). */
  boundary = 0;
  /** Start of the first line not scanned yet (the partial last line). */
  scanned = 0;
  /** In a code fence whose opening line is complete. */
  inFence = false;
  /** The open fence started at column 0 (so it is a top-level block). */
  fenceAtColumnZero = false;
  /** Where the open fence's content starts (after its opening line). */
  fenceContentStart = 0;
  private fenceChar = '';
  private fenceLength = 0;
  private previousBlank = true;
  private inList = false;

  /** Up to where the partial last line is known to have no line break (a long line is searched once). */
  private searched = 0;

  scan(source: string): number {
    let start = this.scanned;
    for (let end = source.indexOf('\n', Math.max(start, this.searched)); end !== -1; end = source.indexOf('\n', start)) {
      this.line(source.slice(start, end).replace(/\r$/, ''), start, end + 1);
      start = end + 1;
    }
    this.scanned = start;
    this.searched = source.length;
    return this.boundary;
  }

  private line(text: string, start: number, next: number): void {
    if (this.inFence) {
      const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(text);
      if (close && close[1][0] === this.fenceChar && close[1].length >= this.fenceLength) {
        this.inFence = false;
        if (this.fenceAtColumnZero) this.boundary = next;
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
      this.fenceContentStart = next;
    } else if (heading) {
      this.boundary = next;
    }
    this.previousBlank = false;
  }
}
