// How chat models answer a fill-in-the-middle request around the right code (peers' issue
// trackers, ../shared/docs/completions.md "Pitfalls"): in a fence, after a sentence, starting
// with the cursor's line again, running on into the code after the cursor, or indented their own
// way; and a chat model does not always keep to the answer tags the prompt asks for: a fenced
// block and a sentence, or the code alone. Given the code that is truly missing, the emulator
// answers with one such form, so a bench can measure how much of it the extension's cleaning
// gives back exactly. One more form is a fault, not noise: `runaway`, a reply that never closes
// its tag and runs on, a comment line again and again (a server that ignores `max_tokens`).
const HOLE = '{{FILL_HERE}}';

export const COMPLETION_NOISES = ['none', 'fence', 'prose', 'echo', 'suffix', 'indent', 'margin', 'chatty', 'untaggedFence', 'untagged'] as const;
export type CompletionNoise = (typeof COMPLETION_NOISES)[number] | 'runaway';

/** How long a runaway reply runs on, in characters: far past any answer asked for. */
export const RUNAWAY_CHARS = 100_000;
const RUNAWAY_LINE = '\n  // and so on';

/** The reply to `question` (the request's text with the hole) when `missing` is the right answer, written with `noise`. */
export function noisyCompletion(missing: string, noise: CompletionNoise, question: string): string {
  const at = question.indexOf(HOLE);
  const before = question.slice(0, at);
  const after = question.slice(at + HOLE.length);
  const lineBefore = before.slice(before.lastIndexOf('\n') + 1);
  const restOfLine = after.split('\n')[0];
  const nextLine =
    after
      .split('\n')
      .slice(1)
      .find((line) => line.trim() !== '') ?? '';
  let code = missing;
  switch (noise) {
    case 'fence':
      return `<COMPLETION>\`\`\`typescript\n${code}\n\`\`\`</COMPLETION>`;
    case 'prose':
      return `Here is the code that goes at the cursor:\n<COMPLETION>${code}</COMPLETION>\nIt completes the statement.`;
    case 'echo':
      // The start of the cursor's line written again, as if the answer were the whole line.
      code = `${lineBefore.trimStart()}${code}`;
      break;
    case 'suffix':
      // On into what follows the cursor: the rest of its line (an auto-closed bracket), else the next line.
      code = restOfLine.trim() ? `${code}${restOfLine}` : `${code}\n${nextLine}`;
      break;
    case 'indent':
      // Tabs where the file has spaces (a model that indents its own way).
      code = code.replace(/^( {2})+/gm, (spaces) => '\t'.repeat(spaces.length / 2));
      break;
    case 'margin':
      // A block's body from the left margin, its own nesting kept: the model forgot where it goes.
      code = dedent(code);
      break;
    case 'chatty':
      // Several at once: a sentence, a fence, and the cursor's line again.
      return `Sure! Here is the completion:\n<COMPLETION>\`\`\`typescript\n${lineBefore.trimStart()}${code}\n\`\`\`</COMPLETION>`;
    case 'untaggedFence':
      return `\`\`\`typescript\n${code}\n\`\`\`\nThis completes the code at the cursor.`;
    case 'untagged':
      return code;
    case 'runaway':
      return `<COMPLETION>${code}${RUNAWAY_LINE.repeat(RUNAWAY_CHARS / RUNAWAY_LINE.length)}`;
    case 'none':
      break;
  }
  return `<COMPLETION>${code}</COMPLETION>`;
}

/** The text with the indentation its lines share taken off. */
function dedent(text: string): string {
  const widths = text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => /^[ \t]*/.exec(line)![0].length);
  const common = widths.length ? Math.min(...widths) : 0;
  return text.replace(new RegExp(`^[ \\t]{${common}}`, 'gm'), '');
}
