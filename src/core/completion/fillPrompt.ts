import type { ChatMessage } from '../service/schemas';
import { ANSWER_CLOSE, ANSWER_OPEN } from './cleanCompletion';
import { fitPrompt, promptMessages } from '../prompt/fitPrompt';
import { listPart } from '../prompt/shrinking';
import { estimateTokens, tokensOfLength } from '../service/tokenCounter';

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
 * Room for the excerpts of the files open beside it, beside the window's own budget: two short
 * excerpts (the host takes at most two of 1,500 characters) with their headings.
 */
const NEIGHBOURS_TOKENS = 1_100;

/** What always goes beside the window: the instructions, the file's heading, the hole and the mode. */
const FIXED_TOKENS = estimateTokens(SYSTEM) + 100;

/**
 * The messages for one completion, from the prompt layer in one budget: the fixed instructions,
 * then the file's path, the excerpts of its neighbours and its text with the hole, the part before
 * the cursor first, its window snapped to fixed lines so that successive requests share it (and
 * the cache serves it), and the request's mode last. The window, the path and the mode always go;
 * the window is cut by fileWindow alone (the answer is cleaned against the same window), and the
 * excerpts take what the budget leaves, the last one giving way first.
 */
export function fillMessages(request: FillRequest): ChatMessage[] {
  const { prefix, suffix } = fileWindow(request.text, request.offset, request.budgetChars);
  const mode = request.multiline
    ? 'Fill the hole with the rest of the block that starts there (several lines at most).'
    : 'Fill the hole with the rest of its line only: a single line.';
  const fitted = fitPrompt(
    [
      { key: 'instructions', role: 'system', required: true, text: SYSTEM },
      { key: 'file', required: true, text: `File: ${request.path} (${request.languageId})` },
      { key: 'neighbours', ...listPart((request.neighbours ?? []).map((file) => `Excerpt of ${file.path}:\n${file.text}`)) },
      { key: 'window', required: true, text: `${prefix}${HOLE}${suffix}` },
      { key: 'mode', required: true, text: mode },
    ],
    FIXED_TOKENS + tokensOfLength(request.budgetChars) + NEIGHBOURS_TOKENS,
  );
  return promptMessages(fitted).map(({ role, text }) => ({ role, content: text }));
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
