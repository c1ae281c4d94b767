import type { DiffFile } from './unifiedDiff';

/**
 * A finding's suggestion as the edit @gigachat's edit confirmation takes: one exact piece of the
 * file, found once, replaced. The finding's lines alone may occur more than once (`return a;`),
 * so whole lines around them are taken in, the same on both sides, until the piece is unique.
 * Pure, so it is tested under plain Node.
 */

/** Lines taken in at most on each side; a piece still not unique then is not offered. */
const MAX_CONTEXT_LINES = 8;

/**
 * @param text the file's text
 * @param first the finding's first line, 1-based
 * @param last its last line
 * @param suggestion the replacement for lines first..last (a final line break is not part of it)
 * @returns the piece to replace and its replacement, or undefined when no unique piece was found
 */
export function findingEdit(text: string, first: number, last: number, suggestion: string): { oldText: string; newText: string } | undefined {
  const lines = text.split('\n');
  if (first < 1 || last < first || last > lines.length) return undefined;
  // A file with CRLF line ends keeps them on the lines the suggestion writes.
  const lineEnd = lines[last - 1].endsWith('\r') ? '\r' : '';
  const replacement = suggestion
    .replace(/\r?\n$/, '')
    .split(/\r?\n/)
    .map((line) => line + lineEnd)
    .join('\n');
  for (let context = 0; context <= MAX_CONTEXT_LINES; context++) {
    const from = Math.max(0, first - 1 - context);
    const to = Math.min(lines.length, last + context);
    const before = lines.slice(from, first - 1);
    const after = lines.slice(last, to);
    const oldText = lines.slice(from, to).join('\n');
    const once = oldText !== '' && text.indexOf(oldText) === text.lastIndexOf(oldText);
    if (once) return { oldText, newText: [...before, replacement, ...after].join('\n') };
    if (from === 0 && to === lines.length) break;
  }
  return undefined;
}

/**
 * The text lines first..last have in the reviewed change (the new side of the hunk that holds
 * them), or undefined when no one hunk does. A Fix applies only while the file still reads so:
 * a staged change reviewed while the working tree says otherwise is not "fixed" blindly.
 */
export function reviewedText(file: DiffFile, first: number, last: number): string | undefined {
  for (const hunk of file.hunks) {
    const lines: string[] = [];
    let line = hunk.newStart;
    for (const text of hunk.lines) {
      if (text.startsWith('-')) continue;
      if (line >= first && line <= last) lines.push(text.slice(1));
      line++;
    }
    if (lines.length === last - first + 1) return lines.join('\n');
  }
  return undefined;
}
