import { openQuote } from './codeLexing';

/**
 * Where the cursor is, as inline completion sees it: the text of its line before and after it,
 * and what kind of completion fits there. Rules from peers that complete code with chat models
 * (Continue, Cody, Tabby; ../shared/docs/completions.md): never mid-word, never right after a
 * statement ends a line; several lines only where a block starts, one line elsewhere.
 */
export interface CompletionSite {
  /** The cursor's line before it. */
  lineBefore: string;
  /** The cursor's line after it. */
  lineAfter: string;
  /** VS Code's language id of the file: a `:` opens a block only where indentation makes blocks. */
  languageId?: string;
}

/** Languages whose blocks start with `:` and are made by indentation; elsewhere `name: ` is a type or a key. */
const COLON_BLOCKS = new Set(['python', 'cython', 'mojo', 'nim', 'gdscript', 'coffeescript']);

/** Whether a completion is worth asking for here: not inside a word, not after a line's closing `;`, `)`, `]` or `}`. */
export function worthCompleting({ lineBefore, lineAfter }: CompletionSite): boolean {
  if (/\w/.test(lineAfter)) return false;
  if (lineAfter.trim() === '' && /[;)\]}]\s*$/.test(lineBefore)) return false;
  return true;
}

/**
 * Several lines where a block starts (an empty line, or the end of a line that opens one with
 * `{` or `=>`, or `:` in Python and its kin), the rest of the line elsewhere.
 */
export function completesBlock({ lineBefore, lineAfter, languageId = '' }: CompletionSite): boolean {
  if (/\S/.test(lineAfter.replace(/^[)\]}]+/, ''))) return false;
  if (lineBefore.trim() === '') return true;
  const opener = COLON_BLOCKS.has(languageId) ? /(?:[{:]|=>)\s*$/ : /(?:\{|=>)\s*$/;
  return opener.test(lineBefore) && openQuote(lineBefore) === undefined;
}
