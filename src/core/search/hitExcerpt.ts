import { maskTokens } from '../workspace/secretShapes';

/** The most of one search result a question quotes, in characters: about two and a half chunks. */
export const MAX_EXCERPT_CHARS = 4_000;

/**
 * What a question quotes of a search result: `text` is the hit's lines as the file holds them now.
 * Whole lines normally; but one long line (minified code, a one-line JSON file) may be megabytes,
 * of which the hit is one piece. Then the window of `maxChars` that starts where the hit's preview
 * (the first line of its chunk with text) is found is quoted, or the lines' beginning when the file changed and it
 * is not found. A window never cuts a surrogate pair in two.
 */
export function hitExcerpt(text: string, preview: string, maxChars = MAX_EXCERPT_CHARS): { code: string; cut: boolean } {
  if (text.length <= maxChars) return { code: text, cut: false };
  const found = preview ? text.indexOf(preview) : -1;
  let start = Math.max(0, Math.min(found, text.length - maxChars));
  if (isLowSurrogate(text.charCodeAt(start))) start++;
  let end = start + maxChars;
  if (isLowSurrogate(text.charCodeAt(end))) end--;
  return { code: text.slice(start, end), cut: true };
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * What a question quotes of a search result's lines: whole lines, or hitExcerpt's window when one
 * of them is longer than a passage may be (minified code, a one-line JSON file); values that look
 * like a token or password masked first (secretShapes.ts), so a window never cuts one in two.
 */
export function quotedLines(lines: string, preview: string): { code: string; cut: boolean; masked: number } {
  const { text, masked } = maskTokens(lines);
  const long = text.split('\n').some((line) => line.length > MAX_EXCERPT_CHARS);
  const { code, cut } = long ? hitExcerpt(text, maskTokens(preview).text) : { code: text, cut: false };
  return { code, cut, masked };
}
