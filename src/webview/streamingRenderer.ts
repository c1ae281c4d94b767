import { BlockScanner } from './blockScanner';
import type { RenderOptions } from './markdown';

/**
 * Draws a reply while it streams, at most once per animation frame, with work proportional to the
 * new text rather than to the whole reply:
 * - complete top-level blocks (see BlockScanner) are rendered once, appended, and left alone;
 * - the tail (the block still growing) is re-rendered, unhighlighted, when its structure may change;
 * - when the new text can only extend the last paragraph or an open code fence, it is appended to
 *   the existing text node and nothing is parsed at all (the common case: words arriving).
 * The DOM it builds is the same as rendering the whole text at once, apart from highlighting that
 * waits until a code block is complete; the tests compare the two on every frame.
 */

export interface StreamingDeps {
  /** Markdown → sanitized, enhanced nodes ready to insert. */
  renderFragment(source: string, options: RenderOptions): DocumentFragment;
  /** Whether linkify would find a link in this text. */
  mayLink(text: string): boolean;
  /** Text of newly completed blocks, for the screen reader live region. */
  announce(text: string): void;
}

/**
 * Characters that can start or end inline syntax we do not track (autolinks, entities, escapes,
 * heading closers, table pipes) or that markdown-it rewrites (CR, NUL, tabs, the image marker).
 * New text containing any of them takes the re-render path.
 */
const SYNTAX = /[\n\r\0\t<>&\\#|\uFFFC]/;
/** Emphasis, code span and strikethrough delimiters: literal while they have nothing to pair with. */
const DELIMITERS = ['*', '_', '`', '~'] as const;
/** Link and image syntax: literal unless both brackets are present. */
const BRACKETS = /[[\]()]/;
/** What the word the new text continues may contain (nothing that the new text could complete). */
const WORD_SYNTAX = /[\n\r\0\t<>&\\#|\uFFFC*_`~[\]()]/;
/** While new text is still in the first word of a line, only these, so it cannot become a block marker. */
const PLAIN_WORD = /^[\p{L}\p{N} ,!?'"«»„“”‘’—–…]*$/u;
/** A blockquote marker or a list item marker at the start of a line. */
const CONTAINER_MARKER = /^ {0,3}(?:>[ \t]?|(?:[*+-]|\d{1,9}[.)])(?:[ \t]+|$))/;
/** A line that could be, or become, a closing code fence. */
const FENCE_LIKE = /^ {0,3}[`~]/;
/** How far back to look for the word the new text continues. */
const MAX_WORD = 200;
/** How much of the start of a line to look at for its container markers and first word. */
const LINE_HEAD = 200;

export class StreamingRenderer {
  private source = '';
  private pending = '';
  private frame = 0;
  private readonly scanner = new BlockScanner();
  private committedEnd = 0;
  private tailNodes: ChildNode[] = [];

  constructor(
    private readonly body: HTMLElement,
    private readonly deps: StreamingDeps,
    initial: string,
  ) {
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

  /** Draws everything received, with the tail highlighted: the reply is complete. */
  finish(): void {
    this.cancelFrame();
    this.source += this.pending;
    this.pending = '';
    this.scanner.scan(this.source);
    this.commitTo(this.scanner.boundary);
    this.replaceTail(this.source.slice(this.committedEnd), false);
    this.deps.announce(this.tailNodes.map((node) => node.textContent ?? '').join(''));
    this.tailNodes = [];
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
    const chunk = this.pending;
    this.pending = '';
    const before = this.source;
    this.source += chunk;
    const boundary = this.scanner.scan(this.source);
    if (boundary > this.committedEnd) {
      this.commitTo(boundary);
      this.replaceTail(this.source.slice(this.committedEnd), true);
    } else if (chunk !== '' && !this.appendInPlace(before, chunk)) {
      this.replaceTail(this.source.slice(this.committedEnd), true);
    }
  }

  private commitTo(boundary: number): void {
    if (boundary <= this.committedEnd) return;
    const fragment = this.deps.renderFragment(this.source.slice(this.committedEnd, boundary), {});
    this.deps.announce(fragment.textContent ?? '');
    this.body.insertBefore(fragment, this.tailNodes[0] ?? null);
    this.committedEnd = boundary;
  }

  private replaceTail(tail: string, streaming: boolean): void {
    for (const node of this.tailNodes) node.remove();
    if (tail === '') {
      this.tailNodes = [];
      return;
    }
    const fragment = this.deps.renderFragment(tail, { streaming });
    this.tailNodes = [...fragment.childNodes];
    this.body.appendChild(fragment);
  }

  /** The fast paths: false when the chunk needs a real re-render. */
  private appendInPlace(before: string, chunk: string): boolean {
    if (this.tailNodes.length === 0) return false;
    const block = lastSignificant(this.tailNodes);
    return this.scanner.inFence ? this.appendToFence(block, before, chunk) : this.appendToParagraph(block, before, chunk);
  }

  /**
   * Inside a code fence that opened at column 0 (so is a top-level block), text is literal until a
   * closing fence line, which the scanner would have reported (it sees every complete line first).
   */
  private appendToFence(block: Node | undefined, before: string, chunk: string): boolean {
    if (!this.scanner.fenceAtColumnZero || /[\r\0]/.test(chunk)) return false;
    const code = block instanceof HTMLElement && block.classList.contains('code-block') ? block.querySelector('pre > code') : null;
    if (!code || code.childElementCount > 0) return false;
    const lineStart = before.lastIndexOf('\n') + 1;
    if (lineStart < this.scanner.fenceContentStart) return false;
    const text = before.slice(lineStart) + chunk;
    // The unfinished last line could still become the closing fence.
    const lastLine = text.slice(text.lastIndexOf('\n') + 1);
    if (FENCE_LIKE.test(lastLine)) return false;
    // markdown-it leaves out a last line that is only whitespace, so what is shown lags behind by it.
    const shownBefore = visibleFenceText(before.slice(lineStart));
    const shownAfter = visibleFenceText(text);
    const added = shownAfter.slice(shownBefore.length);
    if (added === '') return true;
    if (code.lastChild instanceof Text) code.lastChild.appendData(added);
    else code.appendChild(document.createTextNode(added));
    return true;
  }

  /**
   * New words at the end of the last paragraph, heading or list item. Exact as long as the text
   * cannot start or complete any markdown syntax: no syntax characters, no line break, not a
   * block marker at the start of a line, and no link for linkify to find.
   */
  private appendToParagraph(block: Node | undefined, before: string, chunk: string): boolean {
    if (SYNTAX.test(chunk)) return false;
    // markdown-it drops a paragraph's trailing spaces, so they are not shown yet: add them back first.
    // (Index arithmetic, not regular expressions or copies of `before`: it is the whole reply.)
    let end = before.length;
    while (end > 0 && before.charCodeAt(end - 1) === 32) end--;
    if (end === 0 || /\s/.test(before[end - 1])) return false;
    // The start of a line decides what block it is (list item, heading, quote, setext underline…).
    // Past its container markers (quotes, list items), the line must already be settled: its first
    // word plain text that the chunk keeps plain, or any word followed by more text.
    const lineStart = before.lastIndexOf('\n', end - 1) + 1;
    let head = before.slice(lineStart, Math.min(end, lineStart + LINE_HEAD));
    for (let marker = CONTAINER_MARKER.exec(head); marker && marker[0] !== ''; marker = CONTAINER_MARKER.exec(head)) {
      head = head.slice(marker[0].length);
    }
    const start = /^\s*(\S+)(\s+\S)?/.exec(head);
    if (!start) return false;
    const afterFirstWord = head.slice(head.indexOf(start[1]) + start[1].length);
    const firstWordDone = end < before.length || /\s/.test(afterFirstWord);
    if (!firstWordDone && lineStart + LINE_HEAD < end) return false;
    if (!PLAIN_WORD.test(start[1]) && start[2] === undefined) return false;
    if (!firstWordDone && !PLAIN_WORD.test(chunk)) return false;
    const word = lastWord(before, end);
    if (word === undefined || WORD_SYNTAX.test(word)) return false;
    const continues = end === before.length;
    if (this.deps.mayLink(continues ? word + chunk : chunk)) return false;
    const text = lastTextOfParagraph(block);
    if (!text) return false;
    if (!staysLiteral(chunk, text.parentElement?.textContent ?? '')) return false;
    text.appendData((before.slice(end) + chunk).trimEnd());
    return true;
  }
}

/**
 * Whether the delimiters and brackets in `chunk` stay literal text. A delimiter run pairs only with
 * another run of the same character, and every unpaired run of the block so far is still literal
 * text in it; so a single run, in a block whose text has none, has nothing to pair with. (It cannot
 * be glued to a run just before the chunk: the word the chunk continues has no delimiters.)
 * A link needs both brackets.
 */
function staysLiteral(chunk: string, blockText: string): boolean {
  for (const delimiter of DELIMITERS) {
    const first = chunk.indexOf(delimiter);
    if (first === -1) continue;
    let last = first;
    while (chunk[last + 1] === delimiter) last++;
    if (chunk.includes(delimiter, last + 1) || blockText.includes(delimiter)) return false;
  }
  if (BRACKETS.test(chunk)) {
    const text = blockText + chunk;
    if (text.includes('[') && text.includes(']')) return false;
  }
  return true;
}

/** The text of an unfinished fence line or lines as markdown-it shows it. */
function visibleFenceText(text: string): string {
  const lastBreak = text.lastIndexOf('\n');
  return /\S/.test(text.slice(lastBreak + 1)) ? text : text.slice(0, lastBreak + 1);
}

/** The run of non-space characters ending at `end`, or undefined when it is too long to check. */
function lastWord(text: string, end: number): string | undefined {
  let start = end;
  while (start > 0 && !/\s/.test(text[start - 1])) {
    start--;
    if (end - start > MAX_WORD) return undefined;
  }
  return text.slice(start, end);
}

/** The last node that is not whitespace between blocks. */
function lastSignificant(nodes: readonly Node[] | NodeListOf<ChildNode>): Node | undefined {
  for (let index = nodes.length - 1; index >= 0; index--) {
    const node = nodes[index];
    if (node.nodeType !== Node.TEXT_NODE || node.textContent?.trim()) return node;
  }
  return undefined;
}

/** The text node that ends the last paragraph-like block, descending through lists and quotes. */
function lastTextOfParagraph(node: Node | undefined): Text | undefined {
  while (node instanceof HTMLElement) {
    const tag = node.localName;
    if (tag === 'p' || /^h[1-6]$/.test(tag)) {
      return node.lastChild instanceof Text ? node.lastChild : undefined;
    }
    if (tag === 'li') {
      // A tight item holds its text directly; a loose one or one with a sublist holds blocks.
      const last = lastSignificant(node.childNodes);
      if (last instanceof Text) return last === node.lastChild ? last : undefined;
      node = last;
    } else if (tag === 'ul' || tag === 'ol' || tag === 'blockquote') {
      node = lastSignificant(node.childNodes);
    } else {
      return undefined;
    }
  }
  return undefined;
}
