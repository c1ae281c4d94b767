/**
 * Splits a file into the pieces that get one embedding vector each: windows of whole lines, bounded
 * by characters, cut preferably where code or prose naturally breaks (a blank line, the start of a
 * declaration, a markdown heading), with a small overlap where a cut had to fall mid-thought.
 *
 * Guarantees (the unit tests check them on random texts):
 * - every line that holds a non-whitespace character lands in at least one chunk; a chunk is never
 *   whitespace-only (such a chunk would only add noise to search), so a blank line can be missing
 *   only where a whole window would have held nothing but whitespace;
 * - a chunk of several lines is exactly those lines joined with '\n' (CRLF and lone CR are line
 *   breaks too, as in VS Code), and is at most `maxChars` long;
 * - a line longer than `maxChars` is split into pieces of at most `maxChars` (cut at whitespace when
 *   there is some near the end, never inside a surrogate pair); its pieces, in order, concatenate to
 *   the line, and each records that line as both `startLine` and `endLine`;
 * - linear in the size of the text.
 */

export interface Chunk {
  text: string;
  /** 0-based, inclusive. */
  startLine: number;
  /** 0-based, inclusive. */
  endLine: number;
  /**
   * What encloses the chunk, when it is a piece of something longer (syntax chunks: the class line
   * and the method signature): embedded with the text (`embeddingText`) but not part of the file's
   * lines `startLine`..`endLine`, which `text` is exactly.
   */
  context?: string;
}

export interface ChunkOptions {
  /** Upper bound of a chunk's length in characters. Default 1500. */
  maxChars?: number;
  /** Lines repeated at the start of the next chunk after a cut that found no natural boundary. Default 2. */
  overlapLines?: number;
}

export const DEFAULT_MAX_CHARS = 1500;
export const DEFAULT_OVERLAP_LINES = 2;

/** A natural boundary is looked for only among cuts that fill the window at least this much. */
const MIN_FILL = 0.5;
/** The overlap takes at most this share of the next window. */
const MAX_OVERLAP_SHARE = 0.25;
/** A long line is cut at whitespace found within this last share of a piece. */
const WORD_CUT_SHARE = 0.2;

/**
 * Starts of declarations in common languages, and markdown headings: a chunk that begins here reads
 * as one unit. Matched after the indentation.
 */
const DECLARATION = new RegExp(
  String.raw`^(?:export\s|default\s|async\s|function[\s*]|class\s|interface\s|type\s+\w|enum\s|namespace\s|module\s|declare\s|abstract\s|` +
    String.raw`const\s+[\w$]+\s*[:=]|let\s+[\w$]+\s*[:=]|var\s+[\w$]+\s*[:=]|def\s|func\s|fn\s|pub[\s(]|impl[\s<]|struct\s|trait\s|mod\s|` +
    String.raw`public\s|private\s|protected\s|internal\s|static\s|override\s|package\s|object\s|fun\s|sub\s|#{1,6}\s|@[\w.]+|\/\*\*|\/\/\/)`,
);

/** What is embedded for a chunk: its enclosing signatures, then its text. */
export function embeddingText(chunk: Chunk): string {
  return chunk.context === undefined ? chunk.text : `${chunk.context}\n${chunk.text}`;
}

export function chunkText(text: string, options: ChunkOptions = {}): Chunk[] {
  const maxChars = Math.max(1, Math.floor(options.maxChars ?? DEFAULT_MAX_CHARS));
  const overlapLines = Math.max(0, Math.floor(options.overlapLines ?? DEFAULT_OVERLAP_LINES));
  if (!/\S/.test(text)) return [];

  const lines = text.split(/\r\n|\r|\n/);
  const n = lines.length;
  // prefix[i] = characters of lines 0..i-1 (without breaks); span(s, e) counts the '\n's between.
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i] + lines[i].length;
  const span = (s: number, e: number) => prefix[e + 1] - prefix[s] + (e - s);

  const chunks: Chunk[] = [];
  const emit = (chunkText: string, startLine: number, endLine: number) => {
    if (/\S/.test(chunkText)) chunks.push({ text: chunkText, startLine, endLine });
  };

  let start = 0;
  while (start < n) {
    if (lines[start].length > maxChars) {
      for (const piece of splitLongLine(lines[start], maxChars)) emit(piece, start, start);
      start += 1;
      continue;
    }
    // The longest window from `start` that fits.
    let last = start;
    while (last + 1 < n && span(start, last + 1) <= maxChars) last += 1;
    if (last === n - 1) {
      emit(lines.slice(start, last + 1).join('\n'), start, last);
      break;
    }

    // Near the limit, prefer the best natural boundary (the latest among equals).
    let cut = last;
    let best = 0;
    for (let e = last; e >= start && span(start, e) >= maxChars * MIN_FILL; e--) {
      const score = boundaryScore(lines[e], lines[e + 1]);
      if (score > best) {
        best = score;
        cut = e;
      }
    }
    emit(lines.slice(start, cut + 1).join('\n'), start, cut);

    // After a natural boundary the next chunk starts clean; after a hard cut it repeats a few lines
    // (small enough to leave most of the next window, and to let the next line in).
    let next = cut + 1;
    if (best === 0 && lines[next].length <= maxChars) {
      let k = Math.min(overlapLines, cut - start);
      while (k > 0 && (span(next - k, cut) > maxChars * MAX_OVERLAP_SHARE || span(next - k, next) > maxChars)) k -= 1;
      next -= k;
    }
    start = next;
  }
  return chunks;
}

/** How good a cut between line `before` and line `after` is: 0 = no natural boundary. */
function boundaryScore(before: string, after: string): number {
  const indent = /^\s*/.exec(after)![0].length;
  const declaration = DECLARATION.test(after.slice(indent));
  if (declaration && indent === 0) return 4;
  if (!/\S/.test(before) || !/\S/.test(after)) return 3;
  if (declaration) return 2;
  return 0;
}

/** Pieces of at most `maxChars` that concatenate to `line`. */
function splitLongLine(line: string, maxChars: number): string[] {
  const pieces: string[] = [];
  let from = 0;
  while (line.length - from > maxChars) {
    let to = from + maxChars;
    // Prefer a cut just after whitespace near the end of the piece.
    const floor = to - Math.floor(maxChars * WORD_CUT_SHARE);
    for (let i = to - 1; i > floor; i--) {
      if (isSpace(line.charCodeAt(i))) {
        to = i + 1;
        break;
      }
    }
    // Never split a surrogate pair (unless the piece would be empty: maxChars of 1).
    if (to - from > 1 && isHighSurrogate(line.charCodeAt(to - 1)) && isLowSurrogate(line.charCodeAt(to))) to -= 1;
    pieces.push(line.slice(from, to));
    from = to;
  }
  pieces.push(line.slice(from));
  return pieces;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
