import { chunkText, DEFAULT_MAX_CHARS, DEFAULT_OVERLAP_LINES, type Chunk, type ChunkOptions } from './chunker';

/** The little of a tree-sitter node that chunking reads (rows are 0-based lines). */
export interface SyntaxNode {
  readonly type: string;
  readonly startPosition: { row: number; column: number };
  readonly endPosition: { row: number; column: number };
  readonly namedChildren: (SyntaxNode | null)[];
}

/**
 * Node types that hold the members or statements of what encloses them, across the shipped
 * grammars: class_body, statement_block, block, declaration_list, field_declaration_list,
 * compound_statement, body_statement (Ruby), enum_body, switch_body…
 */
const BODY = /body|block|declaration_list|compound_statement|^statements$/;
/** Comment node types (comment, line_comment, block_comment…): they lead into what follows them. */
const COMMENT = /comment/;
/** A chunk without a letter or digit (closing braces) is nothing to search for. */
const WORDS = /[\p{L}\p{N}]/u;
/** A child this share of its parent's lines is looked through for a body. */
const WRAPPER_SHARE = 0.8;
/** How deep under a node its body is looked for (export → const → declarator → arrow function → block). */
const MAX_BODY_DEPTH = 5;
/** The repeated signatures take at most this share of a chunk… */
const MAX_CONTEXT_SHARE = 0.25;
/** …and each one at most this many characters (a long parameter list is cut). */
const MAX_HEADER_CHARS = 200;

/** The signatures enclosing a range of lines, and the last line of the innermost one. */
interface Scope {
  /** Repeated above every piece that starts after `headerEnd`. */
  readonly context: string;
  readonly headerEnd: number;
  readonly outer?: Scope;
}

/**
 * Cuts a parsed file into chunks along its syntax: consecutive declarations are packed together
 * while they fit `maxChars`; one that does not fit is split among the members or statements of its
 * body, each piece carrying the enclosing signatures (class line, method signature…) in `context`,
 * so its text stays exactly the file's lines `startLine`..`endLine`. Lines before a declaration
 * (its comments, decorators, blank lines) go with it. A piece whose lines hold no letter or digit
 * (a lone closing brace) is left out. Where there is nothing to split along (a huge literal, a long
 * line), the lines are cut as `chunkText` cuts them. `context` plus a newline plus `text` is at
 * most `maxChars` long.
 */
export function chunkTree(root: SyntaxNode, lines: readonly string[], options: ChunkOptions = {}): Chunk[] {
  const chunker = new TreeChunker(lines, options);
  chunker.run(children(root), lines.length - 1);
  return chunker.chunks;
}

/**
 * Lines `from`..`to` being covered along `nodes` (in order), with chunks of at most `budget`
 * characters: where `pack` stands in them, so that it can stop to split a node and come back.
 */
interface Packing {
  readonly nodes: SyntaxNode[];
  readonly to: number;
  readonly scope: Scope;
  readonly budget: number;
  /** The next node to place. */
  next: number;
  /** First line of the open group (not yet in a chunk). */
  groupStart: number;
  /** First line no chunk has yet: the open group is groupStart..cursor-1. */
  cursor: number;
  /** Where the comments (and blank lines) at the end of the open group start: they go with the next node. */
  leadIn: number;
}

class TreeChunker {
  readonly chunks: Chunk[] = [];
  readonly maxChars: number;
  private readonly overlapLines: number;
  /** prefix[i] = characters of lines 0..i-1, without breaks. */
  private readonly prefix: Float64Array;

  constructor(
    private readonly lines: readonly string[],
    options: ChunkOptions,
  ) {
    this.maxChars = Math.max(1, Math.floor(options.maxChars ?? DEFAULT_MAX_CHARS));
    this.overlapLines = Math.max(0, Math.floor(options.overlapLines ?? DEFAULT_OVERLAP_LINES));
    this.prefix = new Float64Array(lines.length + 1);
    for (let i = 0; i < lines.length; i++) this.prefix[i + 1] = this.prefix[i] + lines[i].length;
  }

  /**
   * Covers lines 0..`to` along `nodes`. A node split among its members is packed before the rest
   * of its siblings, on a stack of its own rather than the call stack: generated code nests blocks
   * thousands deep, and the split goes as deep as the nesting.
   */
  run(nodes: SyntaxNode[], to: number): void {
    const stack = [packing(nodes, 0, to, { context: '', headerEnd: -1 }, this.maxChars)];
    while (stack.length > 0) {
      const inner = this.pack(stack[stack.length - 1]);
      if (inner) stack.push(inner);
      else stack.pop();
    }
  }

  /** Characters of lines `start`..`end` joined with '\n'. */
  private span(start: number, end: number): number {
    return end < start ? 0 : this.prefix[end + 1] - this.prefix[start] + (end - start);
  }

  /**
   * Places `at`'s nodes in groups until one must be split among its members: returns the packing
   * of those (to be done before `at` goes on), or undefined once `at`'s lines are all covered.
   */
  private pack(at: Packing): Packing | undefined {
    const { to, scope, budget } = at;
    const flush = () => {
      if (at.leadIn > at.groupStart) this.emit(at.groupStart, at.leadIn - 1, scope, budget);
      at.groupStart = at.leadIn;
    };
    while (at.next < at.nodes.length) {
      const node = at.nodes[at.next++];
      const start = Math.max(node.startPosition.row, at.cursor);
      const end = Math.min(lastRow(node), to);
      if (end < start) continue; // on a line already taken (`} else {`)
      at.cursor = end + 1;
      if (this.span(at.groupStart, end) > budget) {
        flush();
        // A long stretch before the node (a big comment) is cut on its own rather than dragged into the split.
        if (this.span(at.groupStart, start - 1) > budget / 2) {
          this.lineChunks(at.groupStart, start - 1, scope, budget);
          at.groupStart = at.leadIn = start;
        }
        if (this.span(at.groupStart, end) > budget) {
          const from = at.groupStart;
          at.groupStart = at.leadIn = end + 1;
          const inner = this.split(node, from, end, scope);
          if (inner) return inner;
          continue;
        }
      }
      if (!COMMENT.test(node.type)) at.leadIn = at.cursor;
    }
    // What is left after the last node (a closing brace): with the open group if it fits.
    if (to >= at.cursor && this.span(at.groupStart, to) > budget) {
      flush();
      this.lineChunks(at.groupStart, to, scope, budget);
      return undefined;
    }
    at.leadIn = to + 1;
    flush();
    return undefined;
  }

  /**
   * Lines `from`..`to` (all of `node`, with what leads into it), too long for one chunk: cut by
   * lines when the node has no members to split among, else the packing of its members.
   */
  private split(node: SyntaxNode, from: number, to: number, scope: Scope): Packing | undefined {
    const body = bodyOf(node);
    const parts = body ? children(body) : [];
    if (parts.length === 0) {
      this.lineChunks(from, to, scope, this.budget(scope));
      return undefined;
    }
    // The signature: the node's lines before its first member, or its first line when they share one.
    const first = node.startPosition.row;
    const headerEnd = Math.max(first, Math.min(parts[0].startPosition.row - 1, to));
    const inner: Scope = { context: this.withHeader(scope.context, first, headerEnd), headerEnd, outer: scope };
    return packing(parts, from, to, inner, this.budget(inner));
  }

  /** Room left in a chunk for text under `scope`'s signatures. */
  private budget(scope: Scope): number {
    return Math.max(1, this.maxChars - (scope.context === '' ? 0 : scope.context.length + 1));
  }

  /** `context` with lines `first`..`last` added, or as it is when they would make it too long. */
  private withHeader(context: string, first: number, last: number): string {
    let header = this.lines
      .slice(first, last + 1)
      .map((line) => line.trimEnd())
      .join('\n');
    if (header.length > MAX_HEADER_CHARS) header = `${header.slice(0, MAX_HEADER_CHARS - 1)}…`;
    const joined = context === '' ? header : `${context}\n${header}`;
    return joined.length <= this.maxChars * MAX_CONTEXT_SHARE ? joined : context;
  }

  private emit(start: number, end: number, scope: Scope, budget: number): void {
    // Blank lines at either end are nothing to cite.
    while (start < end && !/\S/.test(this.lines[start])) start++;
    while (end > start && !/\S/.test(this.lines[end])) end--;
    if (this.span(start, end) > budget) {
      this.lineChunks(start, end, scope, budget);
      return;
    }
    const text = this.lines.slice(start, end + 1).join('\n');
    if (!WORDS.test(text)) return;
    const context = contextAt(scope, start);
    this.chunks.push(context === '' ? { text, startLine: start, endLine: end } : { text, startLine: start, endLine: end, context });
  }

  /** Lines `from`..`to` cut as plain lines are (`chunkText`), in the file's numbering. */
  private lineChunks(from: number, to: number, scope: Scope, budget: number): void {
    const text = this.lines.slice(from, to + 1).join('\n');
    for (const chunk of chunkText(text, { maxChars: budget, overlapLines: this.overlapLines })) {
      if (!WORDS.test(chunk.text)) continue;
      const startLine = chunk.startLine + from;
      const context = contextAt(scope, startLine);
      const placed: Chunk = { text: chunk.text, startLine, endLine: chunk.endLine + from };
      this.chunks.push(context === '' ? placed : { ...placed, context });
    }
  }
}

function packing(nodes: SyntaxNode[], from: number, to: number, scope: Scope, budget: number): Packing {
  return { nodes, to, scope, budget, next: 0, groupStart: from, cursor: from, leadIn: from };
}

/** The signatures above a piece starting at `line`: a piece that holds a signature's own lines does not repeat it. */
function contextAt(scope: Scope, line: number): string {
  let current: Scope | undefined = scope;
  while (current && line <= current.headerEnd) current = current.outer;
  return current?.context ?? '';
}

function children(node: SyntaxNode): SyntaxNode[] {
  return node.namedChildren.filter((child): child is SyntaxNode => child !== null);
}

/** The node's last line: a node that ends at the start of a line (after its newline) ends on the line before. */
function lastRow(node: SyntaxNode): number {
  const { row, column } = node.endPosition;
  return column === 0 && row > node.startPosition.row ? row - 1 : row;
}

/**
 * The node holding `node`'s members or statements: `node` itself when it is a body; else found by
 * looking through wrappers along the widest child (export → class → class body; function → block),
 * a body type first, else the first node with several children to split among (a big object or
 * array literal, a switch case); undefined when there is none.
 */
function bodyOf(node: SyntaxNode): SyntaxNode | undefined {
  if (BODY.test(node.type) && children(node).length > 0) return node;
  let fallback: SyntaxNode | undefined;
  let current = node;
  for (let depth = 0; depth <= MAX_BODY_DEPTH; depth++) {
    const parts = children(current);
    if (parts.length === 0) break;
    if (current !== node && BODY.test(current.type)) return current;
    if (fallback === undefined && parts.length >= 3) fallback = current;
    const widest = parts.reduce((wide, part) => (rows(part) > rows(wide) ? part : wide));
    // Past a node with parts of its own, look only through a child that is nearly all of it (a wrapper).
    if (fallback !== undefined && rows(widest) < rows(current) * WRAPPER_SHARE) break;
    current = widest;
  }
  return fallback;
}

function rows(node: SyntaxNode): number {
  return lastRow(node) - node.startPosition.row;
}
