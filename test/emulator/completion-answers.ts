// Inline completions asked of the chat model (src/core/completion/fillPrompt.ts): the request's
// system text says "code completion engine" and the question marks the cursor with {{FILL_HERE}}.
// The emulated model answers as chat models do, deterministically: the code in the answer tags,
// wrapped in a fence, after a sentence of prose. What it writes depends on the line before the
// hole: after `name =` a call, after a line opening a block a body that closes it, else a comment.
const HOLE = '{{FILL_HERE}}';

export function isCompletionRequest(system: string | undefined, question: string): boolean {
  return (system ?? '').includes('code completion engine') && question.includes(HOLE);
}

export function completionAnswer(question: string): string {
  const before = question.slice(0, question.indexOf(HOLE));
  const line = before.slice(before.lastIndexOf('\n') + 1);
  const indent = /^[ \t]*/.exec(line)![0];
  const assigned = /(\w+)\s*=\s*$/.exec(line);
  let code: string;
  if (assigned) code = `compute${assigned[1].charAt(0).toUpperCase()}${assigned[1].slice(1)}();`;
  else if (/[{:]\s*$/.test(line)) code = `\n${indent}  const result = 42;\n${indent}  return result;\n${indent}}`;
  else code = '// emulated completion';
  return `Here is the code for the hole:\n<COMPLETION>\`\`\`\n${code}\n\`\`\`</COMPLETION>`;
}

/**
 * What a fill-in-the-middle model writes into the hole between `prefix` and `suffix`: only code,
 * but on past the hole into the code after it (its next non-empty line), as such models do when
 * no stop ends them. After `name =` a call, at the end of a line opening a block its body, else a
 * comment.
 */
export function infillMiddle(prefix: string, suffix: string): string {
  const line = prefix.slice(prefix.lastIndexOf('\n') + 1);
  const indent = /^[ \t]*/.exec(line)![0];
  const assigned = /(\w+)\s*=\s*$/.exec(line);
  let code: string;
  if (assigned) code = `${/\s$/.test(line) ? '' : ' '}compute${assigned[1].charAt(0).toUpperCase()}${assigned[1].slice(1)}();`;
  else if (/[{:]\s*$/.test(line)) code = `\n${indent}  const result = 42;\n${indent}  return result;`;
  else code = '// emulated completion';
  const next = suffix.split('\n').find((after) => after.trim() !== '');
  return next === undefined ? code : `${code}\n${next}`;
}
