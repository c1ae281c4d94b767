/** How much of a tool's result the model is given: each line, and the whole. */
export interface TextBounds {
  /** A longer line is cut, followed by a note of how much was left out. */
  maxLineChars: number;
  /** The whole result, line notes included; only the closing note comes on top (see BOUND_NOTE_ALLOWANCE). */
  maxChars: number;
}

/**
 * The bounds of a tool's result: a minified file's one line, a build's log or a long search must
 * not fill the model's context (a 2 MB one-line file once became a 2,000,094-character result).
 */
export const TOOL_RESULT_BOUNDS: TextBounds = { maxLineChars: 2_000, maxChars: 40_000 };

/**
 * The most the closing note (`\n[… 1,234 more characters not shown]`) adds on top of `maxChars`:
 * a bounded result is never longer than `maxChars + BOUND_NOTE_ALLOWANCE`.
 */
export const BOUND_NOTE_ALLOWANCE = 64;

/** What boundedText gives back: the text to send, and counts a caller can tell the user. */
export interface BoundedText {
  text: string;
  /** Lines shown cut at `maxLineChars`. */
  cutLines: number;
  /** Characters of the original text that are not in `text`, from cut lines and from the end. */
  cutChars: number;
}

/**
 * `text` within `bounds`: every line longer than `maxLineChars` is cut to it, followed by
 * ` … [line cut: N more characters]`, and the whole (line notes included) is held to `maxChars`,
 * at a line's end unless not even the first line fits, with a closing note of what is left out.
 * A cut never splits a UTF-16 surrogate pair. Text within bounds comes back unchanged.
 */
export function boundedText(text: string, bounds: TextBounds = TOOL_RESULT_BOUNDS): BoundedText {
  const { maxLineChars, maxChars } = bounds;
  const pieces: string[] = [];
  let used = 0;
  let cutLines = 0;
  let lineCutChars = 0;
  // The original text up to here is shown (or left out with a line's note); the rest goes into the closing note.
  let shownEnd = 0;
  for (let start = 0; ;) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    const separator = start === 0 ? '' : '\n';
    const long = end - start > maxLineChars;
    const kept = long ? safeEnd(text, start + maxLineChars) : end;
    const omitted = end - kept;
    const piece = long ? `${text.slice(start, kept)} … [line cut: ${grouped(omitted)} more characters]` : text.slice(start, end);
    if (used + separator.length + piece.length > maxChars) {
      // Not even the first line fits (bounds where a line may be longer than the whole): show its start.
      if (start === 0) {
        shownEnd = safeEnd(text, Math.min(end, maxChars));
        pieces.push(text.slice(0, shownEnd));
      }
      break;
    }
    pieces.push(separator, piece);
    used += separator.length + piece.length;
    if (omitted > 0) cutLines++;
    lineCutChars += omitted;
    shownEnd = end;
    if (newline === -1) break;
    start = newline + 1;
  }
  const left = text.length - shownEnd;
  if (cutLines === 0 && left === 0) return { text, cutLines: 0, cutChars: 0 };
  if (left > 0) pieces.push(`\n[… ${grouped(left)} more characters not shown]`);
  return { text: pieces.join(''), cutLines, cutChars: lineCutChars + left };
}

/** `end`, or one less when the character before it is the first half of a surrogate pair. */
function safeEnd(text: string, end: number): number {
  const code = text.charCodeAt(end - 1);
  return code >= 0xd800 && code <= 0xdbff ? end - 1 : end;
}

/** 1998000 as "1,998,000", the same on every machine (no locale). */
function grouped(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
