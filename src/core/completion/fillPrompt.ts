import type { ChatMessage } from '../service/schemas';
import { ANSWER_CLOSE, ANSWER_OPEN } from './cleanCompletion';

/** What the model is shown of a file for one completion. */
export interface FillRequest {
  /** The file's path in the workspace, as the model reads it. */
  path: string;
  languageId: string;
  /** The whole text of the file, and the cursor's offset in it. */
  text: string;
  offset: number;
  /** Several lines may go in (a block starts at the cursor), or the rest of the line only. */
  multiline: boolean;
  /** The most of the file sent, in characters (before and after the cursor together). */
  budgetChars: number;
  /** Short excerpts of the files open beside it. */
  neighbours?: readonly { path: string; text: string }[];
}

/** Where the model writes the missing code (cleanCompletion.ts reads it from between the tags). */
export const HOLE = '{{FILL_HERE}}';

/** Lines the window before the cursor starts on a multiple of: it moves in steps, not with each keystroke. */
const WINDOW_STEP_LINES = 16;
/** The part of the budget that goes to the code before the cursor. */
const PREFIX_SHARE = 0.75;

/**
 * The fixed instructions, sent first: the part of every request that never changes, so the
 * service's prompt cache (per `X-Session-ID`) serves it.
 */
const SYSTEM = [
  `You are a code completion engine. The user's file has a hole marked ${HOLE} at the cursor.`,
  `Answer with only the code that fills the hole, between ${ANSWER_OPEN} and ${ANSWER_CLOSE}: no explanation, no code fences, nothing before or after the tags.`,
  'Do not repeat code that is already before or after the hole. Keep the file’s style and indentation.',
].join('\n');

/**
 * The messages for one completion: the fixed instructions, then the file's path, the excerpts
 * of its neighbours and its text with the hole, the part before the cursor first, its window
 * snapped to fixed lines so that successive requests share it (and the cache serves it), and the
 * request's mode last.
 */
export function fillMessages(request: FillRequest): ChatMessage[] {
  const { prefix, suffix } = fileWindow(request.text, request.offset, request.budgetChars);
  const neighbours = (request.neighbours ?? []).map((file) => `Excerpt of ${file.path}:\n${file.text}`);
  const mode = request.multiline
    ? 'Fill the hole with the rest of the block that starts there (several lines at most).'
    : 'Fill the hole with the rest of its line only: a single line.';
  const user = [`File: ${request.path} (${request.languageId})`, ...neighbours, `${prefix}${HOLE}${suffix}`, mode].join('\n\n');
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: user },
  ];
}

/**
 * The text around the cursor within the budget: before it from a line start on a multiple of
 * `WINDOW_STEP_LINES` lines (as late as the budget needs), after it to a line end.
 */
export function fileWindow(text: string, offset: number, budgetChars: number): { prefix: string; suffix: string } {
  const before = text.slice(0, offset);
  const lineStarts = [0];
  for (let i = before.indexOf('\n'); i !== -1; i = before.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const room = Math.floor(budgetChars * PREFIX_SHARE);
  let line = 0;
  while (offset - lineStarts[line] > room && line < lineStarts.length - 1) line += WINDOW_STEP_LINES;
  const start = lineStarts[Math.min(line, lineStarts.length - 1)];
  // At the latest the cursor's own line starts it, even past the budget: the model must see where it is.
  const prefix = text.slice(start, offset);
  const after = text.slice(offset, offset + Math.max(0, budgetChars - prefix.length));
  const end = after.lastIndexOf('\n');
  const suffix = end === -1 || text.length <= offset + after.length ? after : after.slice(0, end);
  return { prefix, suffix };
}
