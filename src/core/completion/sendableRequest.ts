import { maskTokens } from '../workspace/secretShapes';
import { fileWindow, type FillRequest } from './fillPrompt';

/**
 * A completion's request as it may leave the machine: the window of the file around the cursor
 * (fileWindow) and the excerpts of its neighbours, with every value that looks like a token
 * masked (secretShapes.ts), whichever completer sends it. The window is cut first, so the rest of
 * the file is neither sent nor scanned, and its start stays on the same fixed lines (the prompt
 * cache still serves it); the text is then the window alone, and its budget all of it.
 */
export function sendableRequest<R extends FillRequest>(request: R): { request: R; masked: number } {
  const { prefix, suffix } = fileWindow(request.text, request.offset, request.budgetChars);
  const before = maskTokens(prefix);
  const after = maskTokens(suffix);
  let masked = before.masked + after.masked;
  const neighbours = request.neighbours?.map((file) => {
    const excerpt = maskTokens(file.text);
    masked += excerpt.masked;
    return { ...file, text: excerpt.text };
  });
  const text = before.text + after.text;
  // Twice the text: fileWindow gives all of it back, whatever its share before the cursor.
  return { request: { ...request, text, offset: before.text.length, budgetChars: Math.max(request.budgetChars, 2 * text.length), neighbours }, masked };
}
