import { bracketDepth, lineShape, openQuote } from './codeLexing';

/**
 * A chat model's reply to a fill-in-the-middle request, turned into exactly the text missing at
 * the cursor. Chat models wrap code in fences, add a sentence, repeat the start of the line or the
 * code after the cursor, and indent as they please; each rule below is one that peers apply
 * (../shared/docs/completions.md, "Cleaning the reply"), numbered as there.
 */
export interface HoleContext {
  /** The text before the cursor, up to the start of its line at least. */
  prefix: string;
  /** The text after the cursor, to the end of its line at least. */
  suffix: string;
  /** Several lines may go in (a block starts here); else the rest of the line only. */
  multiline: boolean;
  /** The file's indentation unit: a tab, or its number of spaces. */
  indent: string;
}

/** The tags the prompt asks the answer to be written in (see fillPrompt.ts). */
export const ANSWER_OPEN = '<COMPLETION>';
export const ANSWER_CLOSE = '</COMPLETION>';

/** The missing text in a chat model's reply; '' when it offers none worth showing. */
export function cleanCompletion(reply: string, hole: HoleContext): string {
  const answer = answerOf(reply);
  if (answer === undefined) return '';
  let text = withoutScaffolding(withoutFences(answer));
  const lineBefore = lineBeforeCursor(hole);
  text = withoutEcho(text, lineBefore);
  // 5. The cursor stands after spaces already (an indented line, a space typed): the reply's own go.
  if (lineBefore !== '' && /\s$/.test(lineBefore)) text = text.replace(/^[ \t]+/, '');
  // The body of a block opened at the end of the cursor's line (`{`, `:`) starts on the next line, whether or not the model began with a line break.
  if (hole.multiline && /[{:]\s*$/.test(lineBefore) && !text.startsWith('\n')) text = `\n${text}`;
  return withinHole(text, hole);
}

/**
 * The missing text in what a fill-in-the-middle model wrote (a self-hosted server). Such a model
 * writes only the middle, in the file's own terms: no fences, prose or echo to remove, and a block
 * may go on on the cursor's line. Only what it may run into is cut: past the block or line, into
 * the code after the cursor.
 */
export function cleanInfill(text: string, hole: HoleContext): string {
  return withinHole(text, hole);
}

/** The rules both kinds of model need: the file's indentation, one block or line, nothing of what follows the cursor. */
function withinHole(reply: string, hole: HoleContext): string {
  let text = inFileIndentation(reply, hole.indent);
  const lineBefore = lineBeforeCursor(hole);
  text = hole.multiline ? blockOnly(underOpeningLine(text, lineBefore, hole.indent), lineBefore) : text.split('\n')[0];
  text = beforeRepeatedLine(text);
  text = beforeSuffixLine(text, hole.suffix);
  text = beforeRestOfLine(text, hole);
  text = text.replace(/\s+$/, '');
  if (text.trim().length <= 1 || repeatsExisting(text, hole)) return '';
  return text;
}

function lineBeforeCursor(hole: HoleContext): string {
  return hole.prefix.slice(hole.prefix.lastIndexOf('\n') + 1);
}

/**
 * 1. The text inside the answer tags (a closing tag alone counts: the reply may start inside). A
 * chat model does not always keep to the tags: without them, the first fenced block (closed or
 * still arriving), else the reply without the sentences around it, when what is left reads as code.
 */
function answerOf(reply: string): string | undefined {
  const open = reply.indexOf(ANSWER_OPEN);
  const close = reply.indexOf(ANSWER_CLOSE, open === -1 ? 0 : open);
  if (open !== -1) return reply.slice(open + ANSWER_OPEN.length, close === -1 ? undefined : close).replace(/^\r?\n/, '');
  if (close !== -1) return reply.slice(0, close);
  const fence = /^[ \t]*```[^\n]*\n/m.exec(reply);
  if (fence) {
    const block = reply.slice(fence.index + fence[0].length);
    const end = /^[ \t]*```/m.exec(block);
    return end ? block.slice(0, Math.max(0, end.index - 1)) : block;
  }
  return withoutSentences(reply);
}

/**
 * A line of prose, not code: it starts with a capital letter, ends as a sentence does and has none
 * of code's brackets, operators or quotes; three words at least ("Here is the completion:"), or
 * words alone before `!` or `:` ("Sure!", "Конечно!").
 */
const SENTENCE = /^[\p{Lu}](?:[^`{}()[\];=<>"]*\s\S+\s[^`{}()[\];=<>"]*[.!?:…]|[\p{L} ,]*[!:])$/u;

/** An untagged, unfenced reply without the sentences before and after its code; undefined when nothing else is left. */
function withoutSentences(reply: string): string | undefined {
  const lines = reply.split('\n');
  const prose = (line: string) => SENTENCE.test(line.trim());
  let first = 0;
  let last = lines.length;
  if (prose(lines[0])) while (first < last && (prose(lines[first]) || lines[first].trim() === '')) first++;
  while (last > first && prose(lines[last - 1])) last--;
  const code = lines.slice(first, last).join('\n');
  return code.trim() === '' ? undefined : code;
}

/** 2. A first line that opens a fence and everything from a closing fence on. */
function withoutFences(text: string): string {
  const lines = text.split('\n');
  if (/^\s*```/.test(lines[0] ?? '')) lines.shift();
  const fence = lines.findIndex((line) => /^\s*```/.test(line));
  return (fence === -1 ? lines : lines.slice(0, fence)).join('\n');
}

/** 3. The prompt's own markers and path comments echoed back. */
function withoutScaffolding(text: string): string {
  return text
    .split('\n')
    .filter((line) => !/\{\{FILL_HERE\}\}|^\s*(?:\/\/|#)\s*Path:/.test(line))
    .join('\n');
}

/** 4. The start of the cursor's line the model wrote again: the longest end of it the reply begins with (two characters at least, or all of it). */
function withoutEcho(text: string, lineBefore: string): string {
  const line = lineBefore.trimStart();
  for (let length = Math.min(line.length, text.length); length > 0; length--) {
    const start = text.slice(0, length);
    if (!line.endsWith(start)) continue;
    if (length >= 2 || length === line.length) return text.slice(length);
  }
  const indented = text.trimStart();
  return line && indented.startsWith(line) ? indented.slice(line.length) : text;
}

/** 5. Indentation in the file's own unit: tabs for spaces or spaces for tabs, at the start of each line. */
function inFileIndentation(text: string, indent: string): string {
  const width = indent === '\t' ? 4 : indent.length;
  return text.replace(/^[ \t]+/gm, (leading) => {
    const columns = [...leading].reduce((sum, char) => sum + (char === '\t' ? width : 1), 0);
    return indent === '\t' ? '\t'.repeat(Math.floor(columns / width)) + ' '.repeat(columns % width) : ' '.repeat(columns);
  });
}

/**
 * 5. A block's body under the line that opens it, one level in: chat models often write it from
 * the left margin. Only ever moved right, and not when the block is empty (its first line closes it).
 */
function underOpeningLine(text: string, lineBefore: string, indent: string): string {
  if (!/[{:]\s*$/.test(lineBefore) || !text.startsWith('\n')) return text;
  const first = text
    .split('\n')
    .slice(1)
    .find((line) => line.trim() !== '');
  if (!first || /^\s*[)\]}]/.test(first)) return text;
  // Both in the file's unit by now: a tab is one character, as a space is.
  const shift = indentation(lineBefore) + indent.length - indentation(first);
  if (shift <= 0) return text;
  const pad = (indent === '\t' ? '\t' : ' ').repeat(shift);
  return text.replace(/\n(?=[^\n]*\S)/g, `\n${pad}`);
}

/**
 * 11. A block: its lines until the first blank one after code, or one indented less than the
 * cursor's line (the code after the block), or one that closes more than the block opened
 * (whether the code after the cursor closes it already is rule 6's).
 */
function blockOnly(text: string, lineBefore: string): string {
  const lines = text.split('\n');
  const base = indentation(lineBefore);
  const kept = [lines[0]];
  let depth = bracketDepth(lines[0]);
  for (const line of lines.slice(1)) {
    if (line.trim() === '') {
      if (kept.some((previous) => previous.trim() !== '')) break;
    } else if (indentation(line) < base) break;
    kept.push(line);
    depth += bracketDepth(line);
    if (depth < 0) break;
  }
  return kept.join('\n');
}

function indentation(line: string): number {
  return /^[ \t]*/.exec(line)![0].length;
}

/** 10. Everything from a line's third repetition in a row on. */
function beforeRepeatedLine(text: string): string {
  const lines = text.split('\n');
  for (let i = 2; i < lines.length; i++) {
    if (lines[i].trim() !== '' && lines[i] === lines[i - 1] && lines[i] === lines[i - 2]) return lines.slice(0, i).join('\n');
  }
  return text;
}

/**
 * 6. Where the reply runs on into the code after the cursor, line by line: a line that is the
 * suffix's next line (at its indentation: an inner block's `}` is not the outer one's), or one that
 * closes a bracket the block did not open.
 */
function beforeSuffixLine(text: string, suffix: string): string {
  const next = suffix
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trimEnd();
  if (next === undefined) return text;
  const lines = text.split('\n');
  let depth = bracketDepth(lines[0]);
  for (let i = 1; i < lines.length; i++) {
    depth += bracketDepth(lines[i]);
    const same = lines[i].trimEnd() === next || (depth < 0 && lines[i].trim() === next.trim());
    if (same) return lines.slice(0, i).join('\n');
  }
  return text;
}

/**
 * 6 and 8. On the cursor's line, what the code after the cursor has already: where the line, with
 * the reply in it, would close more than it opened or end inside a string (an auto-closed `)` or
 * quote written again), the reply ends before the closer or quote that does it, at the latest
 * one that leaves the line whole (an inner `)` closing a call begun before the cursor stays). And
 * the rest of the line written again when it is no bracket or quote (a `;`).
 */
function beforeRestOfLine(text: string, hole: HoleContext): string {
  const lineBefore = lineBeforeCursor(hole);
  const [restOfLine, ...below] = hole.suffix.split('\n');
  const nextLine = below.find((line) => line.trim() !== '') ?? '';
  // Only where the code after the cursor closes something: elsewhere the reply's closers are the only ones.
  if (/^\s*[)\]}'"`]/.test(restOfLine.trim() ? restOfLine : nextLine)) {
    // The line as it will be: a string the cursor is in is closed by the reply, unless the code after the cursor closes it (an auto-closed quote).
    const quote = openQuote(lineBefore);
    const base = lineShape(lineBefore + (quote && !restOfLine.startsWith(quote) ? quote : '') + restOfLine);
    const whole = (part: string) => {
      const shape = lineShape(lineBefore + part + restOfLine);
      return shape.min >= base.min && shape.inString === base.inString;
    };
    const first = text.split('\n')[0];
    if (!whole(first)) {
      const closers = [...first].flatMap((char, index) => (/[)\]}'"`]/.test(char) ? [index] : [])).reverse();
      const cut = closers.find((index) => whole(first.slice(0, index)));
      if (cut !== undefined) return first.slice(0, cut);
    }
  }
  const rest = restOfLine.trim();
  if (rest && !/[()[\]{}'"`]/.test(rest) && text.trimEnd().endsWith(rest)) return text.trimEnd().slice(0, -rest.length);
  return text;
}

/** 9. A reply that only says again what is there: the end of the code before, the start of the code after, the line above or below. */
function repeatsExisting(text: string, hole: HoleContext): boolean {
  const answer = text.trim();
  const before = hole.prefix.trimEnd();
  const after = hole.suffix.trimStart();
  if (answer.length > 2 && before.endsWith(answer)) return true;
  if (after.startsWith(answer)) return true;
  const first = answer.split('\n')[0].trim();
  const above = hole.prefix
    .split('\n')
    .slice(0, -1)
    .reverse()
    .find((line) => line.trim() !== '');
  const below = hole.suffix
    .split('\n')
    .slice(1)
    .find((line) => line.trim() !== '');
  return first.length > 3 && (first === above?.trim() || first === below?.trim());
}
