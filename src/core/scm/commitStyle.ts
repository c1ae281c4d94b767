/**
 * A repository's way of writing commit subjects, read from its recent history, so the model is
 * told it in words rather than left to guess from a few examples: conventional commits or not, the
 * language, the usual length, a ticket id in front, a capital first letter, a full stop at the end.
 * Each habit counts only when most subjects have it.
 */

export type CommitLanguage = 'en' | 'ru';

export interface CommitStyle {
  /** Most subjects are conventional commits (`feat(scope): …`): the types seen, most used first, and whether a scope is usual. */
  conventional?: { types: string[]; scoped: boolean };
  /** Most subjects start with a ticket id (`ABC-123: `, `[ABC-123] `): one such start as written, for its form. */
  ticket?: { example: string };
  /** The language most subjects are written in; undefined when there is no history or it is mixed. */
  language?: CommitLanguage;
  /** The median subject length, in characters. */
  typicalLength?: number;
  /** Most subjects begin (after any type or ticket) with a capital letter; false when most begin with a small one. */
  capitalized?: boolean;
  /** Most subjects end with a full stop. */
  fullStop?: boolean;
  /** The subjects read, newest first (merges left out), to show the model as examples. */
  subjects: string[];
}

const CONVENTIONAL = /^(feat|fix|docs|style|refactor|perf|test|tests|build|ci|chore|revert|deps|release)(\([^)]*\))?!?: /i;
const TICKET = /^(\[?[A-Z][A-Z0-9]+-\d+\]?:?\s+)/;
/** Merges and reverts are written by git, not by the developer: they say nothing of the style. */
const GENERATED = /^(Merge (branch|pull request|remote-tracking branch|tag)|Revert ")/;

/** The style of `messages` (full commit messages, newest first). */
export function commitStyle(messages: readonly string[]): CommitStyle {
  const subjects = messages.map((message) => message.split(/\r?\n/)[0].trim()).filter((subject) => subject && !GENERATED.test(subject));
  const style: CommitStyle = { subjects };
  if (subjects.length === 0) return style;
  const most = (count: number) => count * 2 > subjects.length;

  const conventional = subjects.map((subject) => CONVENTIONAL.exec(subject));
  if (most(conventional.filter(Boolean).length)) {
    const found = conventional.filter((match): match is RegExpExecArray => match !== null);
    const scoped = found.filter((match) => match[2]).length * 2 > found.length;
    style.conventional = { types: byFrequency(found.map((match) => match[1].toLowerCase())), scoped };
  }
  const tickets = subjects.map((subject) => TICKET.exec(subject)?.[1]);
  if (most(tickets.filter(Boolean).length)) style.ticket = { example: tickets.find(Boolean)! };

  const words = subjects.map((subject) => subject.replace(CONVENTIONAL, '').replace(TICKET, ''));
  const russian = words.filter((text) => letters(text, /[А-Яа-яЁё]/g) > letters(text, /[A-Za-z]/g)).length;
  if (most(russian)) style.language = 'ru';
  else if (most(words.length - russian)) style.language = 'en';

  style.typicalLength = median(subjects.map((subject) => [...subject].length));
  const firsts = words.map((text) => /\p{L}/u.exec(text)?.[0]).filter((letter): letter is string => letter !== undefined);
  const capitals = firsts.filter((letter) => letter !== letter.toLowerCase()).length;
  if (most(capitals)) style.capitalized = true;
  else if (most(firsts.length - capitals)) style.capitalized = false;
  if (most(subjects.filter((subject) => /[^.]\.$/.test(subject)).length)) style.fullStop = true;
  return style;
}

function letters(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

function byFrequency(values: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).map(([value]) => value);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : Math.round((sorted[middle - 1] + sorted[middle]) / 2);
}

/** A ticket id in a branch name (`feature/ABC-123-login` → `ABC-123`), for the subject's prefix. */
export function branchTicket(branch: string | undefined): string | undefined {
  return /(?:^|[/_-])([A-Z][A-Z0-9]+-\d+)(?=$|[/_-])/.exec(branch ?? '')?.[1];
}
