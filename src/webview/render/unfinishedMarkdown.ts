import remend, { type RemendOptions } from 'remend';
import { endsInUndecidedDollar } from './mathDelimiters';

/**
 * How the unfinished end of a streaming reply is made ready to render, so that it shows formatted
 * as it arrives and never as something it will not become:
 * - a last line that so far holds only the start of a block's syntax (`-`, `##`, `1.`, `>`, a
 *   fence's opening line) waits for its first word: no empty list item or heading flashes up, a
 *   paragraph does not turn into a heading for a frame on a `-` that becomes a list, and a fence
 *   does not show as an empty code block whose language is half typed;
 * - a lone `$` the text ends in waits for the next character, which tells whether it closes a
 *   formula or is money (`$5 and $` before `10`): no formula flashes up that is not one;
 * - emphasis, inline code and strikethrough that are opened but not yet closed are closed for the
 *   moment (remend: the library streaming renderers use for this), so `**bold` is bold as it is
 *   written.
 */

/** A partial last line of bare block syntax: list, quote and heading markers, a rule, a fence. */
const BARE_BLOCK_SYNTAX = /(?:^|\n)[ \t]*(?:(?:[-+*#>=_|:~`]|\d)+[ \t]*|(?:`{3,}|~{3,}).*)$/;

/**
 * The text shown now, and what is held back: a last line until it has a word, or a last `$` until
 * the next character (empty when nothing is).
 */
export function splitUnfinishedLine(text: string): [shown: string, held: string] {
  const match = BARE_BLOCK_SYNTAX.exec(text);
  if (!match) return endsInUndecidedDollar(text) ? [text.slice(0, -1), '$'] : [text, ''];
  const lineStart = match.index + (match[0].startsWith('\n') ? 1 : 0);
  return [text.slice(0, lineStart), text.slice(lineStart)];
}

/**
 * What is left as written. A link or picture shows as written until its `)`: remend's placeholder
 * address would show as text, since only http(s) links are made. A formula is not closed for the
 * moment: it shows as text until the model closes it (mathMarkdown.ts); a
 * single `~` never strikes through in markdown-it; HTML is shown as text anyway; `>` stays as
 * written.
 */
const LEFT_AS_WRITTEN: RemendOptions = {
  links: false,
  images: false,
  katex: false,
  inlineKatex: false,
  singleTilde: false,
  htmlTags: false,
  comparisonOperators: false,
};

/**
 * Punctuation linkify leaves out of an address the text ends in, but which may yet be inside it
 * (`https://example.org.` before `uk`): such an address is not made a link yet (markdown.ts).
 */
export const MAY_CONTINUE_ADDRESS = /[.,:;!?]+$/;

/** `text` with the inline markers it leaves open closed (see above). */
export function closeUnfinished(text: string): string {
  const closed = remend(text, LEFT_AS_WRITTEN);
  const added = closed.slice(text.length);
  // remend closes emphasis opened before an unfinished code span inside the span (its `**` would
  // show as code): nothing opened after the span's backticks can still be open, so they close first.
  const backticks = /`+/.exec(added);
  if (!closed.startsWith(text) || !backticks || backticks.index === 0) return closed;
  return text + backticks[0] + added.slice(0, backticks.index) + added.slice(backticks.index + backticks[0].length);
}
