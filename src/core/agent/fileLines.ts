import { maskedNote, maskTokens } from '../workspace/secretShapes';
import { boundedText, TOOL_RESULT_BOUNDS } from './boundedText';

/** What one read returns at most: enough to work with, little enough to leave room for the answer. */
const MAX_LINES = 400;

/**
 * A file's lines as the agent's read tool gives them to the model: numbered, from `startLine` to
 * `endLine` (1-based, inclusive; at most MAX_LINES), each cut at TOOL_RESULT_BOUNDS.maxLineChars
 * and the whole held to its maxChars, saying so. Values that look like tokens (secretShapes.ts)
 * are masked, and the result says so: the model (and the user reading the tool's result) learns
 * that something was there and why it is not.
 */
export function fileLines(label: string, text: string, startLine?: number, endLine?: number): string {
  const lines = text.split(/\r?\n/);
  const total = lines.length;
  const first = clamp(startLine ?? 1, 1, total);
  let last = clamp(endLine ?? first + MAX_LINES - 1, first, Math.min(total, first + MAX_LINES - 1));
  const numbered: string[] = [];
  let characters = 0;
  let masked = 0;
  for (let line = first; line <= last; line++) {
    // Line by line, before a long line is cut (a token is never split by the cut); no shape spans a line break.
    const sendable = maskTokens(lines[line - 1]);
    const shown = `${line}: ${sendable.text}`;
    const length = Math.min(shown.length, TOOL_RESULT_BOUNDS.maxLineChars);
    if (characters + length > TOOL_RESULT_BOUNDS.maxChars && numbered.length > 0) {
      last = line - 1;
      break;
    }
    numbered.push(shown);
    masked += sendable.masked;
    characters += length + 1;
  }
  const bounded = boundedText(numbered.join('\n'));
  const more = last < total ? ` Lines ${last + 1}–${total} were not read: ask for them with startLine ${last + 1}.` : '';
  const cut = bounded.cutLines > 0 ? ` ${bounded.cutLines} lines longer than ${TOOL_RESULT_BOUNDS.maxLineChars} characters were cut.` : '';
  return `${label}, lines ${first}–${last} of ${total}.${more}${cut}${maskedNote(masked)}\n${bounded.text}`;
}

function clamp(value: unknown, low: number, high: number): number {
  const number = typeof value === 'number' && Number.isFinite(value) ? Math.floor(value) : low;
  return Math.min(Math.max(number, low), Math.max(low, high));
}
