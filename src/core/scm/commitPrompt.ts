import type { ConversationMessage } from '../conversation/turns';
import { fitPrompt, promptMessages, type PromptPart } from '../prompt/fitPrompt';
import { trimAtLineEnds } from '../prompt/shrinking';
import type { CommitLanguage, CommitStyle } from './commitStyle';

/**
 * What the model is asked for a commit message: instructions that spell out the repository's
 * style (commitStyle.ts) and the settings, then the change (changeDigest.ts) and the recent
 * subjects as examples. Written in English for the model; the language of the message is said.
 */

export interface CommitRequest {
  /** The change as changeDigest.ts gives it. */
  digest: string;
  style: CommitStyle;
  /** `gigachat.commitMessageLanguage`: 'auto' follows the history, then `fallbackLanguage`. */
  language: 'auto' | CommitLanguage;
  /** When the history says nothing: VS Code's display language, if English or Russian. */
  fallbackLanguage: CommitLanguage;
  /** The ticket the branch's name holds (commitStyle.ts `branchTicket`). */
  ticket?: string;
  /** `gigachat.commitMessageInstructions`: the user's own. */
  instructions: string;
  /** The project's rules for the changed files (core/rules, fitted): commit conventions are the most common. */
  rules?: string;
  /** The staged change, or everything (nothing was staged, so VS Code commits all of it). */
  scope: 'staged' | 'all';
  /** The tokens the request may take (commitMessage.ts fitted the change to them); none: all of it goes. */
  budgetTokens?: number;
}

/** How many recent subjects the model is shown as examples. */
export const EXAMPLE_SUBJECTS = 10;

const LANGUAGE_NAMES: Record<CommitLanguage, string> = { en: 'English', ru: 'Russian' };

/**
 * The commit message's request, from the prompt layer: the instructions and the user's own
 * always, the change always (made to measure when `change` is given), the project's rules next,
 * the example subjects last (the oldest give way first).
 */
export function commitPromptParts(request: CommitRequest, change: PromptPart['text'] = request.digest): PromptPart[] {
  const examples = request.style.subjects.slice(0, EXAMPLE_SUBJECTS);
  const rules = request.rules?.trim();
  const own = request.instructions.trim();
  return [
    { key: 'instructions', role: 'system', required: true, text: instructions(request).join('\n') },
    // Before the user's own instructions, which have the last word.
    {
      key: 'rules',
      role: 'system',
      priority: 2,
      text: rules ? `Of the rules below, follow those about commit messages (their format, language, tickets); the rest are about code.\n${rules}` : '',
      shrink: trimAtLineEnds(RULES_CUT),
    },
    { key: 'ownInstructions', role: 'system', required: true, text: own ? `The user's own instructions:\n${own}` : '' },
    {
      key: 'scope',
      required: true,
      text: request.scope === 'staged' ? 'The staged change:' : 'The change (nothing is staged, so all of it will be committed):',
    },
    { key: 'change', required: true, text: change, maxTokens: MAX_DIGEST_TOKENS },
    {
      key: 'examples',
      priority: 1,
      text: examples.length > 0 ? ["The repository's recent commit subjects, newest first:", ...examples.map((subject) => `- ${subject}`)].join('\n') : '',
      shrink: trimAtLineEnds(''),
    },
  ];
}

/** The most a change takes of a commit message's request: a day's work fits whole, and a message never costs a long chat's worth of tokens. */
export const MAX_DIGEST_TOKENS = 12_000;

export function commitMessagePrompt(request: CommitRequest): ConversationMessage[] {
  const fitted = fitPrompt(commitPromptParts(request), request.budgetTokens ?? Infinity);
  return promptMessages(fitted).map(({ role, text }) => ({ role, parts: [{ kind: 'text', text }] }));
}

function instructions(request: CommitRequest): string[] {
  const { style } = request;
  const language = request.language === 'auto' ? (style.language ?? request.fallbackLanguage) : request.language;
  const lines = [
    'You write the commit message for the change the user gives. Answer with the message only: no quotes, no code fences, no preamble.',
    'The first line is the subject: what the change does and why, in the imperative mood. Add a body after a blank line only when the change needs explaining (several separate changes, a reason that is not obvious); wrap it at 72 characters.',
    `Write in ${LANGUAGE_NAMES[language]}.`,
  ];
  if (style.conventional) {
    const scope = style.conventional.scoped ? 'with a scope in parentheses, ' : '';
    lines.push(
      `This repository uses Conventional Commits: start the subject with a type ${scope}then ": " (types used here: ${style.conventional.types.join(', ')}).`,
    );
  } else if (style.subjects.length > 0) lines.push('This repository does not use Conventional Commits: no "feat:" or "fix:" prefix.');
  if (request.ticket)
    lines.push(
      `Start the subject with the ticket ${request.ticket}${style.ticket ? `, in the form the history uses (like "${style.ticket.example.trim()}")` : ''}.`,
    );
  else if (style.ticket)
    lines.push(`Subjects here start with a ticket id (like "${style.ticket.example.trim()}"), but this change's ticket is not known: do not invent one.`);
  if (style.typicalLength)
    lines.push(`Subjects here are about ${style.typicalLength} characters long; keep the subject under ${Math.max(50, style.typicalLength + 15)}.`);
  if (style.capitalized !== undefined) lines.push(style.capitalized ? 'Start the subject with a capital letter.' : 'Start the subject with a small letter.');
  lines.push(style.fullStop ? 'End the subject with a full stop.' : 'Do not end the subject with a full stop.');
  lines.push('Files whose content is not shown are named with their statistics only: mention them if they matter, never guess their content.');
  return lines;
}

/** What ends the rules when the room cuts them: the model must not take a part for all of them. */
export const RULES_CUT = "[…the rest of the project's rules is left out for lack of room]";

/**
 * The reply as a commit message: without the code fence, quotes, "Commit message:" label or
 * sentences a model may put around it, trailing spaces, and runs of blank lines; never with a
 * fence's backticks. Safe on a reply still arriving (an opening fence or quote goes at once, its
 * closing one once it comes), so the input box can show the message as it is written.
 */
export function cleanCommitMessage(reply: string): string {
  let text = reply.replace(/\r\n/g, '\n').trim();
  text = text.replace(/^(?:\*\*)?(?:commit message|сообщение коммита)(?:\*\*)?\s*:\s*(?:\*\*)?\s*/i, '');
  // The start of a fence, still arriving: at the start, or on a line of its own after a sentence.
  if (/^(?:[`~]{1,2}|[`~]{3,}[^\n]*)$/.test(text)) return '';
  text = fencedMessage(text.replace(/\n[`~]{1,2}$/, ''));
  for (const [open, close] of QUOTES) {
    if (!text.startsWith(open)) continue;
    const inside = text.slice(open.length);
    const closing = inside.indexOf(close);
    // Quotes around the whole message (or an opening one whose end has not arrived yet), not a quoted word at its start.
    if (closing === -1) text = inside;
    else if (closing === inside.length - close.length) text = inside.slice(0, closing);
    break;
  }
  // A subject set in bold (`**Fix the parser**`): the markers are not part of the message.
  text = text.replace(/^([^\n]*)/, (subject) => subject.replace(/\*\*(.+?)\*\*/g, '$1'));
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/`{3,}/g, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** A fence's opening line, anywhere in the reply. */
const FENCE_OPENING = /^(`{3,}|~{3,})[^\n]*(?:\n|$)/m;

/**
 * The message when the reply has a fenced block: the block's text when the model put it in one
 * with sentences around it ("Вот сообщение коммита:", "Hope this helps!"), an opening one still
 * arriving too. A fence inside a message of its own (a body that quotes code, after a blank line)
 * is part of it: only its marker lines go.
 */
function fencedMessage(text: string): string {
  const opening = FENCE_OPENING.exec(text);
  if (!opening) return text.trim();
  const before = text.slice(0, opening.index).trim();
  const rest = text.slice(opening.index + opening[0].length);
  const close = rest.search(new RegExp(`^${opening[1]}`, 'm'));
  const after =
    close >= 0
      ? rest
          .slice(close)
          .replace(/^[^\n]*/, '')
          .trim()
      : '';
  // Prose before a block that introduces it: one paragraph, ending with a colon or followed by more prose after the block.
  const introduced = !before.includes('\n\n') && (/[:：]$/.test(before) || after !== '');
  if (before === '' || introduced) return (close >= 0 ? rest.slice(0, close) : rest.replace(/\n[`~]*$/, '')).trim();
  return text
    .split('\n')
    .filter((line) => !/^\s*(`{3,}|~{3,})/.test(line))
    .join('\n')
    .trim();
}

const QUOTES: readonly [string, string][] = [
  ['"', '"'],
  ['«', '»'],
  ['“', '”'],
];
