/**
 * Where a formula starts and ends in the text of a paragraph: `$…$` and `\(…\)` inline, `$$…$$` and
 * `\[…\]` displayed. Pure (no DOM, no markdown-it), so the rules are unit-tested on their own.
 *
 * Money is not mathematics (pandoc's rule for `$`): an opening `$` has a non-space character right
 * after it, and a closing `$` a non-space character right before it and no digit right after it
 * (nor is it half of a `$$`). So `$1.5 million and $2 million` stays text, while `$x$` and
 * `$1\, 2\, 3$` are formulas. A `\$` before the formula is a literal dollar (markdown-it's escape
 * rule takes it before this scanner sees a `$`); inside a formula, `\$` and any other backslash
 * pair is TeX's and never closes it.
 * Code spans and code blocks are markdown-it's: it never hands their text to the math rule.
 */

export interface MathSpan {
  /** The TeX between the delimiters, as written. */
  tex: string;
  /** Displayed on a line of its own (`$$…$$`, `\[…\]`) rather than inline. */
  display: boolean;
  /** Where the formula ends: the index just after its closing delimiter. */
  end: number;
}

const BACKSLASH = 0x5c;
const DOLLAR = 0x24;

/**
 * Finds formulas in one text after another, as markdown-it's inline rule asks at each `$` and `\`.
 * A formula whose closing delimiter is missing means none is found after it either, which it
 * remembers for the text, so a paragraph full of dollars costs time linear in its length rather
 * than quadratic (a model can write two megabytes of `$5 `).
 */
export class MathScanner {
  private text = '';
  /** For each closing delimiter, the earliest start from which it was not found. */
  private readonly unclosedFrom = new Map<string, number>();

  /**
   * The formula that starts at `start` in `text` and ends by `limit` (the end of the text by
   * default), or undefined when none does.
   */
  at(text: string, start: number, limit = text.length): MathSpan | undefined {
    const first = text.charCodeAt(start);
    if (first !== BACKSLASH && first !== DOLLAR) return undefined;
    if (text !== this.text) {
      this.text = text;
      this.unclosedFrom.clear();
    }
    const within = limit < text.length ? text.slice(0, limit) : text;
    const second = within[start + 1];
    if (first === BACKSLASH) {
      if (second === '(') return this.found(within, start, '\\)', () => enclosed(within, start + 2, '\\)', false));
      if (second === '[') return this.found(within, start, '\\]', () => enclosed(within, start + 2, '\\]', true));
      return undefined;
    }
    if (second === '$') return this.found(within, start, '$$', () => enclosed(within, start + 2, '$$', true));
    if (second === undefined || SPACE.test(second)) return undefined;
    return this.remembered(within, start, '$', () => inlineDollar(within, start));
  }

  private found(within: string, start: number, closing: string, find: () => MathSpan | undefined): MathSpan | undefined {
    const span = this.remembered(within, start, closing, find);
    // `$$ $$` is no formula, but its closing `$$` is there: it does not count as missing.
    return span && span.tex.trim() !== '' ? span : undefined;
  }

  private remembered(within: string, start: number, closing: string, find: () => MathSpan | undefined): MathSpan | undefined {
    // Only a search to the end of the whole text tells about later starts.
    const whole = within.length === this.text.length;
    if (whole && start >= (this.unclosedFrom.get(closing) ?? Infinity)) return undefined;
    const span = find();
    if (!span && whole) this.unclosedFrom.set(closing, Math.min(start, this.unclosedFrom.get(closing) ?? Infinity));
    return span;
  }
}

/** The TeX from `from` to the first `closing` outside a backslash pair; undefined if there is none. */
function enclosed(text: string, from: number, closing: string, display: boolean): MathSpan | undefined {
  for (let index = from; index < text.length; index++) {
    if (text.startsWith(closing, index)) return { tex: text.slice(from, index), display, end: index + closing.length };
    if (text.charCodeAt(index) === BACKSLASH) index++;
  }
  return undefined;
}

const SPACE = /\s/;
const DIGIT = /\d/;

/** `$…$` by pandoc's rule (see above), its opening `$` already checked. */
function inlineDollar(text: string, start: number): MathSpan | undefined {
  for (let index = start + 1; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === BACKSLASH) {
      index++;
    } else if (code === DOLLAR && !SPACE.test(text[index - 1]) && !DIGIT.test(text[index + 1] ?? '') && !nextToDollar(text, index)) {
      return { tex: text.slice(start + 1, index), display: false, end: index + 1 };
    }
  }
  return undefined;
}

/** A `$` of a `$$` closes no `$…$` (`$x and $$y` is no formula). */
function nextToDollar(text: string, index: number): boolean {
  return text.charCodeAt(index - 1) === DOLLAR || text.charCodeAt(index + 1) === DOLLAR;
}

/**
 * Whether `text` ends in a lone `$` that is not escaped. While a reply streams, such a `$` may close
 * a formula or be followed by a digit that makes it money (`$5 and $` before `10`), so it is held
 * back until the next character tells.
 */
export function endsInUndecidedDollar(text: string): boolean {
  if (!text.endsWith('$') || text.endsWith('$$')) return false;
  let backslashes = 0;
  for (let index = text.length - 2; index >= 0 && text.charCodeAt(index) === BACKSLASH; index--) backslashes++;
  return backslashes % 2 === 0;
}
