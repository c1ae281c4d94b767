import { textWithSlots, withoutImageMarkers } from './pictureSlots';
import type { RenderOptions } from './markdown';
import { splitUnfinishedLine } from './unfinishedMarkdown';

/**
 * The unfinished end of a streaming reply (the block still growing), drawn so that a reader sees
 * it formatted as it arrives, with work per frame that does not grow with the reply:
 * - In a code fence that opened at column 0, new code is appended as text inside the block's
 *   `<code>`, as it will stay (highlighting comes when the block is complete).
 * - Anything else is rendered as markdown again whenever it grows, prepared as unfinishedMarkdown.ts
 *   says (`**bold` is bold as it is written; a line of bare block syntax waits for its first word).
 * - A block that grows past LIVE_RENDER_LIMIT (a long list, say) is rendered only at doubling
 *   lengths, new text continuing as written inside its last paragraph in between, so no frame
 *   renders more than about twice the limit.
 * New text always goes into new text nodes: in Chromium, `appendData` on a text node in the page
 * costs several times as much as adding a node, and more the longer the node is.
 */

/** The longest unfinished block rendered again on every frame it grows (about a screenful). */
const LIVE_RENDER_LIMIT = 2000;

/** A partial last line that could still become the closing fence (or is only indentation). */
const MAY_CLOSE_FENCE = /^ {0,3}(?:`+|~+)?[ \t]*$/;

export interface FragmentRenderer {
  /** Markdown → sanitized, enhanced nodes ready to insert. */
  renderFragment(source: string, options: RenderOptions): DocumentFragment;
  /** An empty code block, toolbar included, for a fence with this info string. */
  codeBlockShell(info: string): DocumentFragment;
  /** What a complete code block's `<code>` holds for this code: highlighted, or plain text. */
  codeContent(code: string, language: string): Node;
  /** Where a picture will go (for the marker that stands for it in the text). */
  imageSlot(): HTMLElement;
}

export class StreamingTail {
  /** The tail's top-level nodes, all after the reply's complete blocks. */
  private nodes: ChildNode[] = [];
  /** Whether the tail is an open code fence, and the `<code>` its text goes into. */
  private inCode = false;
  private code: Element | undefined;
  /** The partial last line of the fence, held back while it could be the closing fence. */
  private heldBack = '';
  /** Whether nothing of the fence's last line is shown yet (so it could still close the fence). */
  private atLineStart = true;
  /** Where text goes that is shown as written; created on first use. */
  private raw: HTMLElement | undefined;
  /** Whether `raw` is an element of rendered markdown (whose text flows without line breaks). */
  private rawInRendered = false;
  /** The length of the tail at its last render. */
  private renderedLength = 0;
  /** The last line of the tail at its last render, not shown because it held only block syntax. */
  private heldLine = '';

  constructor(
    private readonly body: HTMLElement,
    private readonly renderer: FragmentRenderer,
  ) {}

  /** The first node of the tail: complete blocks are inserted before it. */
  get first(): ChildNode | null {
    return this.nodes[0] ?? null;
  }

  /** Whether the tail is drawn as a code block. */
  get isCode(): boolean {
    return this.inCode;
  }

  /** The tail is now `text`, of which `added` is new since it was last drawn. */
  update(text: string, added: string): void {
    if (this.inCode) this.appendCode(added);
    else if (this.renderedLength <= LIVE_RENDER_LIMIT || text.length >= 2 * this.renderedLength) this.render(text);
    else this.appendText(added);
  }

  /** Starts over with `text` (a new block after a complete one). */
  showText(text: string): void {
    this.render(text);
  }

  /** Starts over as a code block, from its fence's info string and the code so far. */
  showFence(info: string, code: string): void {
    this.clear();
    const fragment = this.renderer.codeBlockShell(info);
    this.inCode = true;
    this.atLineStart = true;
    this.code = fragment.querySelector('.code-block pre > code') ?? undefined;
    this.insert(fragment);
    this.appendCode(code);
  }

  /**
   * The code fence the tail shows is complete, and its content is `code`: the block, highlighted now,
   * stays where it is as a complete block of the reply (its toolbar and the nodes around the code
   * are already what a render of the block gives), and the tail starts over after it. Returns the
   * block's text, for the screen reader.
   */
  completeFence(code: string): string {
    const block = this.code?.closest<HTMLElement>('.code-block');
    this.code?.replaceChildren(this.renderer.codeContent(code, block?.dataset.lang ?? ''));
    this.nodes = [];
    this.clear();
    return block?.textContent ?? '';
  }

  /**
   * Renders the whole tail as markdown (without highlighting) but for a last line of bare block
   * syntax. Past the live limit, text that comes before the next render continues after it (the
   * held line first).
   */
  private render(text: string): void {
    this.clear();
    this.renderedLength = text.length;
    const [shown, held] = splitUnfinishedLine(text);
    this.heldLine = held;
    if (shown === '') return;
    const fragment = this.renderer.renderFragment(shown, { streaming: true });
    // Text that continues the last line flows on inside the last paragraph, list item or heading.
    // (A `$` held back continues the line too.)
    if (text.length > LIVE_RENDER_LIMIT && (held === '' || held === '$') && !shown.endsWith('\n')) {
      this.raw = lastTextBlock(fragment);
      this.rawInRendered = this.raw !== undefined;
      // markdown-it drops a paragraph's trailing spaces; the words that follow need them.
      const spaces = /[ \t]+$/.exec(shown)?.[0];
      if (this.raw && spaces) this.raw.appendChild(document.createTextNode(' '));
    }
    this.insert(fragment);
  }

  clear(): void {
    for (const node of this.nodes) node.remove();
    this.nodes = [];
    this.inCode = false;
    this.code = undefined;
    this.heldBack = '';
    this.atLineStart = true;
    this.raw = undefined;
    this.rawInRendered = false;
    this.renderedLength = 0;
    this.heldLine = '';
  }

  private appendCode(text: string): void {
    const code = this.heldBack + text;
    const lineBreak = code.lastIndexOf('\n');
    const lastLine = code.slice(lineBreak + 1);
    const mayClose = (lineBreak !== -1 || this.atLineStart) && MAY_CLOSE_FENCE.test(lastLine);
    const hold = mayClose ? lastLine.length : 0;
    this.heldBack = code.slice(code.length - hold);
    const shown = code.slice(0, code.length - hold);
    if (shown !== '') {
      this.atLineStart = hold > 0 || shown.endsWith('\n');
      this.code?.appendChild(document.createTextNode(withoutImageMarkers(shown)));
    }
  }

  private appendText(added: string): void {
    let text = this.heldLine + added;
    this.heldLine = '';
    if (text === '') return;
    if (this.raw && this.rawInRendered) {
      // A rendered block does not keep line breaks: a new line goes to a paragraph that does.
      const lineEnd = text.indexOf('\n');
      this.appendRun(this.raw, lineEnd === -1 ? text : text.slice(0, lineEnd));
      if (lineEnd === -1) return;
      this.raw = undefined;
      text = text.slice(lineEnd + 1);
      if (text === '') return;
    }
    if (!this.raw) {
      this.raw = document.createElement('p');
      this.raw.className = 'streaming-text';
      this.rawInRendered = false;
      this.insert(this.raw);
    }
    this.appendRun(this.raw, text);
  }

  /** Appends text as written, with a picture's place where its marker stands. */
  private appendRun(target: HTMLElement, text: string): void {
    target.append(...textWithSlots(text, () => this.renderer.imageSlot()));
  }

  private insert(node: DocumentFragment | HTMLElement): void {
    if (node instanceof DocumentFragment) this.nodes.push(...node.childNodes);
    else this.nodes.push(node);
    this.body.appendChild(node);
  }
}

const BLOCK = /^(?:p|h[1-6]|ul|ol|li|blockquote|div|pre|table|hr)$/;

/** The element that the last line of rendered markdown flows in: a paragraph, heading or list item. */
function lastTextBlock(root: ParentNode): HTMLElement | undefined {
  let node = lastElement(root);
  while (node) {
    const tag = node.localName;
    if (tag === 'p' || /^h[1-6]$/.test(tag)) return node;
    if (tag === 'ul' || tag === 'ol' || tag === 'blockquote') {
      node = lastElement(node);
    } else if (tag === 'li') {
      // A tight item holds its text directly; a loose one, or one ending in a sublist, holds blocks.
      const last = lastSignificant(node);
      if (last instanceof HTMLElement && BLOCK.test(last.localName)) node = last;
      else return node;
    } else {
      return undefined;
    }
  }
  return undefined;
}

function lastElement(node: ParentNode): HTMLElement | undefined {
  const last = node.lastElementChild;
  return last instanceof HTMLElement ? last : undefined;
}

/** The last child that is not whitespace between blocks. */
function lastSignificant(node: ParentNode & Node): ChildNode | undefined {
  for (let child = node.lastChild; child; child = child.previousSibling) {
    if (child.nodeType !== Node.TEXT_NODE || child.textContent?.trim()) return child;
  }
  return undefined;
}
