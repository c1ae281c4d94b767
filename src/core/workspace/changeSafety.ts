/**
 * What an agent's change must not do to be shown to the user for approval: hide what it writes.
 * The user reviews the change in VS Code's diff editor; text after thousands of spaces, characters
 * that render as nothing or reorder what is shown, control characters and lone carriage returns
 * all let a hostile model (or an injected prompt) write something the user approves without
 * seeing. Such a change is refused, with a reason the model can act on; very long lines are
 * flagged, so the question can say where to scroll. Pure, so it is tested under plain Node.
 *
 * What a change "brings in": only lines of newText that are not already in oldText are judged, so
 * an edit next to (or re-indenting) content that was there before is not refused for that content.
 * A line counts as already there when an old line reads the same once indentation is set aside;
 * its indentation itself must be as it was for the indentation rule to let it pass. Judging whole
 * lines rather than counting characters also catches an invisible character moved from a comment
 * into code, where counting would see nothing new.
 */

/** What the confirmation must know about a change. */
export interface ChangeReview {
  /** Why the change is refused outright (said to the model so it can write it plainly), or undefined. */
  refused?: string;
  /**
   * Lines that reach past what the diff editor shows without scrolling: 1-based line numbers in
   * the file once changed, and their lengths in characters (for the first and last line of a
   * replacement, the part newText gives). Only lines the change brings in are listed.
   */
  longLines: { line: number; length: number }[];
}

/** Longer lines reach past the diff editor's width: the confirmation says where to scroll. */
export const LONG_LINE_CHARACTERS = 200;
/**
 * Longer lines are refused: nobody reviews a 10,000-character line (a minified bundle, a data blob)
 * in a diff, so an agent must not write one into the workspace; the user can still add one by hand.
 */
export const MAX_LINE_CHARACTERS = 10_000;
/** A gap this wide inside a line, with text after it, pushes that text out of view ("harmless = 1;" + spaces + code). */
export const MAX_GAP_COLUMNS = 40;
/**
 * Deeper indentation puts the line's text out of view in a side-by-side diff. Legitimate code
 * rarely goes past 20 levels; generated deep nesting is for the user to add by hand.
 */
export const MAX_INDENT_COLUMNS = 160;
/** A tab inside a line counts as VS Code's default tab size, so tab-aligned columns (C headers, Makefiles) pass. */
const TAB_COLUMNS_IN_LINE = 4;
/** A tab in indentation counts as the widest common tab size, so the limit holds whatever the user's setting. */
const TAB_COLUMNS_IN_INDENT = 8;

/** Blank characters: tabs, spaces of any width, and the Braille blank that renders as one. */
const BLANK_RUNS = /[\t\p{Zs}\u2800]+/gu;
const LEADING_BLANKS = /^[\t\p{Zs}\u2800]*/u;
/**
 * Characters that may hide or garble text: C0 controls but tab (a line feed ends the line, a
 * carriage return is judged apart), DEL and C1 controls (U+009B starts terminal escapes too),
 * the Unicode line separators, format characters (bidi controls, zero-width spaces, tags) and
 * default-ignorable ones (variation selectors, Hangul fillers, the soft hyphen), which render as nothing.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const SUSPECT_CHARACTERS = /[\0-\x08\x0B-\x1F\x7F-\x9F\u2028\u2029\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;
const BIDI_CONTROLS = new Set([0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]);
const ZWNJ = 0x200c;
const ZWJ = 0x200d;
const EMOJI_PRESENTATION = [0xfe0e, 0xfe0f];
const BYTE_ORDER_MARK = 0xfeff;
const PICTOGRAPH = /\p{Extended_Pictographic}/u;
const SKIN_TONE = /\p{Emoji_Modifier}/u;
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u;
/**
 * Scripts whose spelling needs the zero-width (non-)joiner between letters: Persian writes
 * "می‌خواهم" with one, Indic scripts use it to choose conjunct forms.
 */
const JOINING_SCRIPT_LETTER =
  /^(?=[\p{L}\p{M}])[\p{scx=Arab}\p{scx=Syrc}\p{scx=Deva}\p{scx=Beng}\p{scx=Guru}\p{scx=Gujr}\p{scx=Orya}\p{scx=Taml}\p{scx=Telu}\p{scx=Knda}\p{scx=Mlym}\p{scx=Sinh}]$/u;

const CHARACTER_NAMES: Readonly<Record<number, string>> = {
  0x00: 'NULL',
  0x07: 'BELL',
  0x08: 'BACKSPACE',
  0x0b: 'LINE TABULATION',
  0x0c: 'FORM FEED',
  0x1b: 'ESCAPE',
  0x7f: 'DELETE',
  0x85: 'NEXT LINE',
  0x9b: 'CONTROL SEQUENCE INTRODUCER',
  0xad: 'SOFT HYPHEN',
  0x034f: 'COMBINING GRAPHEME JOINER',
  0x061c: 'ARABIC LETTER MARK',
  0x115f: 'HANGUL CHOSEONG FILLER',
  0x1160: 'HANGUL JUNGSEONG FILLER',
  0x180e: 'MONGOLIAN VOWEL SEPARATOR',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x2028: 'LINE SEPARATOR',
  0x2029: 'PARAGRAPH SEPARATOR',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2060: 'WORD JOINER',
  0x2061: 'FUNCTION APPLICATION',
  0x2062: 'INVISIBLE TIMES',
  0x2063: 'INVISIBLE SEPARATOR',
  0x2064: 'INVISIBLE PLUS',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0x3164: 'HANGUL FILLER',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
  0xffa0: 'HALFWIDTH HANGUL FILLER',
};

/**
 * Judges a change before the user is asked about it.
 * @param oldText the text replaced; empty for a new file
 * @param newText the text written in its place
 * @param firstLine the 1-based line of the file where oldText starts (1 for a new file); refusals
 *   and long lines name lines of the file once changed, and columns (counted in characters) on
 *   newText's first line count from where newText starts
 */
export function reviewChange(oldText: string, newText: string, firstLine: number): ChangeReview {
  const isNewFile = oldText === '';
  const oldLines = oldText.split('\n').map(withoutLineEnd);
  const unchangedLines = new Set(oldLines);
  const unchangedContents = new Set(oldLines.map(withoutIndentation));
  const newLines = newText.split('\n');
  const longLines: ChangeReview['longLines'] = [];
  let refused: string | undefined;
  newLines.forEach((raw, index) => {
    const isLast = index === newLines.length - 1;
    // newText's last line runs on into the file's text after the replaced part, the same text oldText's did:
    // a carriage return there is as well followed as it was, and a gap there may well have text after it.
    const runsOn = isLast && !isNewFile;
    const line = !isLast || (runsOn && oldText.endsWith('\r')) ? withoutLineEnd(raw) : raw;
    const at = { line: firstLine + index, isFirst: index === 0, runsOn };
    if (!unchangedLines.has(line)) refused ??= leadingBlanksProblem(line, at, isNewFile ? undefined : oldLines[0]);
    if (unchangedContents.has(withoutIndentation(line))) return;
    refused ??= characterProblem(line, at, isNewFile) ?? gapProblem(line, at);
    const length = line.length > LONG_LINE_CHARACTERS ? [...line].length : line.length;
    if (length > MAX_LINE_CHARACTERS) {
      refused ??= `Line ${at.line} is ${count(length)} characters long: nobody can review a line that long in a diff. Break it into lines of reasonable length; generated or minified text is for the user to add by hand.`;
    }
    if (length > LONG_LINE_CHARACTERS) longLines.push({ line: at.line, length });
  });
  return refused === undefined ? { longLines } : { refused, longLines };
}

/** Where a line of newText is: its line in the file, whether it is newText's first, whether it runs on into the file's text. */
interface LinePlace {
  line: number;
  isFirst: boolean;
  runsOn: boolean;
}

/**
 * Indentation so deep that the line's text starts out of view. On newText's first line in a
 * replacement the blanks may follow text of the file's line, so there they are a gap unless
 * oldText's first line started with blanks at least as wide.
 */
function leadingBlanksProblem(line: string, at: LinePlace, oldFirstLine: string | undefined): string | undefined {
  const blanks = LEADING_BLANKS.exec(line)?.[0] ?? '';
  if (blanks === '' || (blanks.length === line.length && !at.runsOn)) return undefined;
  const mayFollowText = at.isFirst && oldFirstLine !== undefined;
  if (mayFollowText && columns(blanks, TAB_COLUMNS_IN_LINE) > columns(LEADING_BLANKS.exec(oldFirstLine)?.[0] ?? '', TAB_COLUMNS_IN_LINE)) {
    return gapProblem(line, at, true);
  }
  if (columns(blanks, TAB_COLUMNS_IN_INDENT) <= MAX_INDENT_COLUMNS) return undefined;
  return `Line ${at.line} is indented by ${count(blanks.length)} blank characters: its text would start out of view in the diff the user reviews. Indent it by at most ${MAX_INDENT_COLUMNS} columns (a tab counting as ${TAB_COLUMNS_IN_INDENT}).`;
}

/**
 * A run of blanks inside the line, at least MAX_GAP_COLUMNS wide, with text after it: that text
 * is out of view. Trailing blanks hide nothing, except on newText's last line of a replacement,
 * where the file's own text follows. Leading blanks are indentation, judged apart, unless `fromStart`.
 */
function gapProblem(line: string, at: LinePlace, fromStart = false): string | undefined {
  for (const run of line.matchAll(BLANK_RUNS)) {
    const start = run.index;
    if (start === 0 && !fromStart) continue;
    const hasTextAfter = start + run[0].length < line.length || at.runsOn;
    if (!hasTextAfter || columns(run[0], TAB_COLUMNS_IN_LINE) < MAX_GAP_COLUMNS) continue;
    return `Line ${at.line} has ${count(run[0].length)} blank characters in a row at column ${column(line, start)}, with more text after them: in the diff the user reviews, that text would be out of view. Write the change without such a gap (under ${MAX_GAP_COLUMNS} columns, a tab counting as ${TAB_COLUMNS_IN_LINE}).`;
  }
  return undefined;
}

/** The first character that is invisible, turns text around, or is a control character, with where it is. */
function characterProblem(line: string, at: LinePlace, isNewFile: boolean): string | undefined {
  for (const found of line.matchAll(SUSPECT_CHARACTERS)) {
    const index = found.index;
    const code = found[0].codePointAt(0) ?? 0;
    if (isAllowedInvisible(line, index, code, isNewFile && at.isFirst)) continue;
    const where = `Line ${at.line}, column ${column(line, index)}`;
    if (code === 0x0d) {
      return `${where} has a carriage return (U+000D) not followed by a line feed: some viewers go back to the line's start there and show the text after it over the text before. End lines with \\n (or \\r\\n, as the file does).`;
    }
    const what = `${where} has ${characterName(code)}`;
    const escape = code > 0xffff ? `\\u{${hex(code)}}` : `\\u${hex(code)}`;
    if (code === 0x2028 || code === 0x2029) {
      return `${what}, an unusual line break: some editors and languages break the line there and others do not. Use \\n, or ${escape} in a string.`;
    }
    if (isControl(code)) {
      return `${what}, a control character: terminals act on it (ESCAPE starts ANSI escape sequences) and editors may not show it. Write it as an escape, such as ${escape} in a string.`;
    }
    const effect = BIDI_CONTROLS.has(code) ? 'which changes the order text is shown in' : 'which is invisible';
    return `${what}, ${effect}: the user could not see what the change really says. Write the change without it (as an escape such as ${escape} in a string, if the character is needed).`;
  }
  return undefined;
}

/**
 * Invisible characters that belong where they are: a byte order mark opening a new file, an emoji
 * or text presentation selector after a character, a zero-width joiner inside an emoji sequence
 * (👨‍👩‍👧, 🏳️‍🌈), a zero-width (non-)joiner between letters of a script that spells with it.
 * Everything else invisible is refused, tag characters (England's flag) and other variation
 * selectors included: they can spell out hidden text ("ASCII smuggling").
 */
function isAllowedInvisible(line: string, index: number, code: number, opensNewFile: boolean): boolean {
  if (code === BYTE_ORDER_MARK) return opensNewFile && index === 0;
  const previous = codePointBefore(line, index);
  if (EMOJI_PRESENTATION.includes(code)) return previous !== undefined && !isInvisible(previous);
  if (code !== ZWJ && code !== ZWNJ) return false;
  const next = line.codePointAt(index + 1);
  if (previous === undefined || next === undefined) return false;
  const before = String.fromCodePoint(previous);
  const after = String.fromCodePoint(next);
  const inEmoji = code === ZWJ && (PICTOGRAPH.test(before) || SKIN_TONE.test(before) || previous === 0xfe0f) && PICTOGRAPH.test(after);
  return inEmoji || (JOINING_SCRIPT_LETTER.test(before) && JOINING_SCRIPT_LETTER.test(after));
}

function isInvisible(code: number): boolean {
  return INVISIBLE.test(String.fromCodePoint(code));
}

/** "U+202E (RIGHT-TO-LEFT OVERRIDE)", or what kind of character it is when it has no name here. */
function characterName(code: number): string {
  return `U+${hex(code)} (${CHARACTER_NAMES[code] ?? characterKind(code)})`;
}

function characterKind(code: number): string {
  if (code >= 0xfe00 && code <= 0xfe0f) return `VARIATION SELECTOR-${code - 0xfe00 + 1}`;
  if (code >= 0xe0100 && code <= 0xe01ef) return `VARIATION SELECTOR-${code - 0xe0100 + 17}`;
  if (code >= 0xe0000 && code <= 0xe007f) return 'a tag character';
  if (isControl(code)) return 'a control character';
  return 'an invisible formatting character';
}

/** C0 and C1 controls and DEL. */
function isControl(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

function codePointBefore(text: string, index: number): number | undefined {
  if (index === 0) return undefined;
  const low = text.charCodeAt(index - 1);
  const isPair = low >= 0xdc00 && low <= 0xdfff && index >= 2 && text.charCodeAt(index - 2) >= 0xd800 && text.charCodeAt(index - 2) <= 0xdbff;
  return text.codePointAt(isPair ? index - 2 : index - 1);
}

/** Width of blanks on screen: a tab as `tabColumns`, any other blank as one. */
function columns(blanks: string, tabColumns: number): number {
  let width = 0;
  for (const character of blanks) width += character === '\t' ? tabColumns : 1;
  return width;
}

/** 1-based column of a UTF-16 index, counted in characters (an emoji is one). */
function column(line: string, index: number): number {
  return [...line.slice(0, index)].length + 1;
}

function withoutLineEnd(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

function withoutIndentation(line: string): string {
  return line.replace(LEADING_BLANKS, '');
}

function hex(code: number): string {
  return code.toString(16).toUpperCase().padStart(4, '0');
}

/** 3042 → "3,042", as the messages are English. */
function count(value: number): string {
  return value.toLocaleString('en-US');
}
