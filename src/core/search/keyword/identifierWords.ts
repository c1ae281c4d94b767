/**
 * The words the keyword index matches on, the same for a chunk's text, a file's path and a query,
 * so that a developer's words meet the code's spelling of them:
 * - every word, case-folded, in any script (`Токен` and `токен` are one word);
 * - an identifier whole and in its parts: `refreshAccessToken` gives `refreshaccesstoken`,
 *   `refresh`, `access` and `token`; `MAX_RETRY_COUNT`, `HTTPServer2` and `$scope` likewise (acronyms
 *   and digits are parts of their own);
 * - a kebab-case name whole too (`stream-tracker`), besides its parts; with `dotted` (paths and
 *   queries, not code, where `this.store.get` is everywhere and would only cost memory) a dotted
 *   name too (`chunker.ts`), so a query that names a file finds its path.
 * Single characters and pieces longer than {@link MAX_WORD_CHARS} (hashes, base64) are left out:
 * they would match nothing a person types and only cost memory.
 */

/** Longer runs of letters and digits are data, not words. */
export const MAX_WORD_CHARS = 40;

/** An identifier: letters, digits, `_` and `$` in any script. */
const IDENTIFIER = /[\p{L}\p{N}_$]+/gu;
/** Where an identifier breaks into parts: `_`/`$` runs, lower→Upper, ACRONYMWord, letter↔digit. */
const PART = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+|\p{Lo}+|\p{N}+/gu;
/** An identifier of one part (most words): {@link PART} need not run. */
const ONE_PART = /^(?:\p{Lu}?\p{Ll}+|\p{Lu}+|\p{Lo}+|\p{N}+)$/u;

/**
 * The words of `text` in order, with repeats (the index counts them): each identifier's whole form
 * first, then its parts when it has more than one, then compounds (see the file comment). `dotted`:
 * `text` is a path or a query, whose dotted names are kept whole too.
 */
export function searchWords(text: string, dotted = false): string[] {
  return wordsOf(text, dotted).words;
}

/**
 * The words of a query (as {@link searchWords} with `dotted`), and the names among them: the whole
 * form of each identifier of several parts (`retryAfterDelay`, `max_retries`) and each compound
 * (`chunker.ts`, `stream-tracker`). What a developer types when they know what they look for.
 */
export function queryWords(query: string): { words: string[]; names: string[] } {
  return wordsOf(query, true);
}

/**
 * One pass over the text; a compound is a run of them each one character (`-`, or `.` when
 * `dotted`) after the last, so no pattern rescans the text (a regular expression for compounds
 * backtracks over every identifier that is not one, and costs more than the rest together).
 */
function wordsOf(text: string, dotted: boolean): { words: string[]; names: string[] } {
  const words: string[] = [];
  const names: string[] = [];
  const keep = (word: string, name = false) => {
    if (word.length <= 1 || word.length > MAX_WORD_CHARS) return;
    const folded = word.toLowerCase();
    words.push(folded);
    if (name) names.push(folded);
  };
  let compoundStart = 0;
  let joined = 0;
  let previousEnd = -2;
  const endCompound = () => {
    if (joined > 1) keep(text.slice(compoundStart, previousEnd), true);
  };
  const length = text.length;
  for (let start = 0; start < length;) {
    if (!isIdentifierAt(text, start)) {
      start += 1;
      continue;
    }
    // Scanned by hand, not by a regular expression: this runs over every character indexed.
    let end = start;
    let oneAsciiPart = true;
    while (end < length && isIdentifierAt(text, end)) {
      const code = text.charCodeAt(end);
      // A plain word (lower case, maybe capitalised) is one part; anything else goes to PART.
      if (code >= 128 || code === 95 || code === 36 || (code >= 48 && code <= 57) || (end > start && code >= 65 && code <= 90)) oneAsciiPart = false;
      end += 1;
    }
    const separator = start === previousEnd + 1 ? text[previousEnd] : '';
    if (separator === '-' || (dotted && separator === '.')) joined += 1;
    else {
      endCompound();
      compoundStart = start;
      joined = 1;
    }
    previousEnd = end;
    const whole = oneAsciiPart ? text.slice(start, end) : trimJoiners(text.slice(start, end));
    start = end;
    if (whole.length > MAX_WORD_CHARS) continue;
    const parts = oneAsciiPart || ONE_PART.test(whole) ? [] : (whole.match(PART) ?? []);
    keep(whole, parts.length > 1);
    if (parts.length > 1) for (const part of parts) keep(part);
  }
  endCompound();
  return { words, names };
}

/** Whether the code unit at `at` belongs to an identifier: ASCII letters, digits, `_`, `$`; beyond ASCII, {@link IDENTIFIER}. */
function isIdentifierAt(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code < 128) return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 36;
  // A surrogate half is taken with its pair, so letters beyond the first plane stay whole.
  const point = code >= 0xdc00 && code <= 0xdfff && at > 0 ? text.codePointAt(at - 1)! : text.codePointAt(at)!;
  IDENTIFIER.lastIndex = 0;
  return IDENTIFIER.test(String.fromCodePoint(point));
}

/** `identifier` without the `_` and `$` it starts or ends with (`__proto__`, `$scope`). */
function trimJoiners(identifier: string): string {
  const edge = /[_$]/;
  return edge.test(identifier[0]) || edge.test(identifier[identifier.length - 1]) ? identifier.replace(/^[_$]+|[_$]+$/g, '') : identifier;
}
