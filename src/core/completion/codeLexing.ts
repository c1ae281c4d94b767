/**
 * Code read as a completion's cleaning needs it: brackets outside string literals (a `(` in `'('`
 * opens nothing), and whether a line ends inside a string. Quotes are followed roughly (an escaped quote stays inside
 * its string; a template literal's `${…}` counts as text; a regular expression's brackets count):
 * good enough for a line or a short block, which is all a suggestion is.
 */
const OPENERS = '([{';
const CLOSERS = ')]}';

/** Each bracket outside strings, with its index in `text`. */
export function bracketsOf(text: string): { char: string; index: number }[] {
  return lex(text).brackets;
}

/** The quote of the string literal `line` ends inside (a `:` there starts no block); undefined when it ends outside strings. */
export function openQuote(line: string): string | undefined {
  return lex(line).quote;
}

function lex(text: string): { brackets: { char: string; index: number }[]; quote?: string } {
  const found: { char: string; index: number }[] = [];
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quote) {
      if (char === '\\') i++;
      else if (char === quote || (char === '\n' && quote !== '`')) quote = undefined;
    } else if (char === "'" || char === '"' || char === '`') quote = char;
    else if (OPENERS.includes(char) || CLOSERS.includes(char)) found.push({ char, index: i });
  }
  return { brackets: found, quote };
}

/** Brackets `text` opens minus those it closes. */
export function bracketDepth(text: string): number {
  return bracketsOf(text).reduce((depth, { char }) => depth + (OPENERS.includes(char) ? 1 : -1), 0);
}

/**
 * A line's bracket shape: the lowest depth it reaches from its start (below 0 where it closes what
 * lines before it opened), and whether it ends inside a string.
 */
export function lineShape(line: string): { min: number; inString: boolean } {
  const { brackets, quote } = lex(line);
  let depth = 0;
  let min = 0;
  for (const { char } of brackets) {
    depth += OPENERS.includes(char) ? 1 : -1;
    min = Math.min(min, depth);
  }
  return { min, inString: quote !== undefined };
}
