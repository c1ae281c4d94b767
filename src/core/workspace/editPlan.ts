/**
 * What an agent's edit would do to a file's text, worked out before the user is asked and again
 * just before it is applied (the file may have changed meanwhile): one exact, unique piece of text
 * replaced, or a new file's text. Pure, so it is tested under plain Node.
 */

export interface EditInput {
  path: string;
  /** The text to replace, exactly as in the file; empty to create the file. */
  oldText?: string;
  newText: string;
}

export type EditPlan =
  | { kind: 'replace'; offset: number; oldText: string; newText: string; firstLine: number }
  | { kind: 'create'; newText: string }
  | { kind: 'refused'; reason: string };

/** @param current the file's text, or undefined when it does not exist */
export function planEdit(input: EditInput, current: string | undefined, label: string): EditPlan {
  if (typeof input.newText !== 'string') return { kind: 'refused', reason: 'Give newText, the text to write.' };
  const oldText = typeof input.oldText === 'string' ? input.oldText : '';
  if (oldText === '') {
    if (current === undefined || current === '') return { kind: 'create', newText: input.newText };
    return { kind: 'refused', reason: `${label} already exists: give oldText, the exact text to replace (read the file first).` };
  }
  if (current === undefined) return { kind: 'refused', reason: `${label} does not exist: to create it, leave oldText empty.` };
  const offset = current.indexOf(oldText);
  if (offset === -1)
    return { kind: 'refused', reason: `oldText was not found in ${label}: read the file again and copy the text exactly, with its indentation.` };
  if (current.indexOf(oldText, offset + 1) !== -1)
    return { kind: 'refused', reason: `oldText occurs more than once in ${label}: include more lines around it so it is unique.` };
  return { kind: 'replace', offset, oldText, newText: input.newText, firstLine: lineAt(current, offset) };
}

/** How many lines a change takes out of the file and puts in, for a one-line account of it ("3 lines removed, 5 added"). */
export interface ChangeSummary {
  removedLines: number;
  addedLines: number;
}

/** Counts the lines a planned change removes and adds (a new file removes none). */
export function changeSummary(plan: Extract<EditPlan, { kind: 'replace' | 'create' }>): ChangeSummary {
  return { removedLines: plan.kind === 'replace' ? splitLines(plan.oldText).length : 0, addedLines: splitLines(plan.newText).length };
}

/** 1-based line of an offset. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

function splitLines(text: string): string[] {
  return text === '' ? [] : text.replace(/\r?\n$/, '').split(/\r?\n/);
}
