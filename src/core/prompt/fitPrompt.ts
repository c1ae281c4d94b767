import { estimateTokens } from '../service/tokenCounter';

/**
 * The one way a request's text is fitted to the model: a prompt is a list of parts, each with how
 * much it matters and how it may shrink, fitted to ONE token budget. What must stay (the
 * instructions, the user's question, the text at the cursor) is placed first; what may give way
 * (the project's rules, codebase passages, a change's hunks, excerpts of open files, example
 * subjects) gets what is left, the most important first, shrunk when it has a way to shrink, left
 * out when it has none. Nothing optional ever goes over the budget; the parts keep the order they
 * were given in; and what was shortened or left out is reported, so the feature can tell the
 * user. Pure, and measured with the same estimate everywhere (tokenCounter.ts `estimateTokens`).
 */

/** How many tokens a text takes; the features use `estimateTokens`, completions count characters. */
export type Measure = (text: string) => number;

/** A part's text made smaller to fit `room`, and what was left out of it, for the feature to tell. */
export interface Shrunk {
  text: string;
  /** What was left out, in the feature's own words for its log or the user ("2 of 5 hunks"). */
  leftOut?: string;
}

/** Shrinks a part's whole text into `room` tokens; undefined when nothing of it is worth sending in that room. */
export type Shrink = (text: string, room: number, measure: Measure) => Shrunk | undefined;

/** Text made to measure: given the room the part has, its text (a change summarised within it). */
export type MadeToMeasure = (room: number) => Shrunk;

export interface PromptPart {
  /** Names the part in the report and in `textOf` ('instructions', 'rules', 'change'): one per prompt. */
  key: string;
  /** The message the part goes in (promptMessages joins the parts of one role that follow each other). */
  role?: 'system' | 'user';
  /** Never left out: the instruction, the user's question. If such parts alone exceed the budget, `overBudget` says by how much. */
  required?: boolean;
  /** Among the parts that may give way, a higher one is fitted first and keeps its room; ties go to the earlier part. */
  priority?: number;
  /** The whole text, or a function that writes it within the room the part gets. */
  text: string | MadeToMeasure;
  /** How the whole text shrinks when it does not fit (shrinking.ts); without it the part is whole or left out. */
  shrink?: Shrink;
  /** The most this part may take, whatever the budget leaves (the rules of a request, however large the model). */
  maxTokens?: number;
}

export interface FittedPart {
  key: string;
  role: 'system' | 'user';
  text: string;
  tokens: number;
  /** Not whole: shrunk, or written to a room smaller than it wanted. */
  shortened: boolean;
}

export interface LeftOut {
  key: string;
  /** Left out whole, not only shortened. */
  whole: boolean;
  leftOut?: string;
}

export interface FittedPrompt {
  /** The parts that go, in the order given. */
  parts: FittedPart[];
  /** The parts shortened or left out, in the order given. */
  leftOut: LeftOut[];
  /** What the parts take, with one token for each join between them. */
  tokens: number;
  /** How far the required parts alone go over the budget; 0 when they fit. */
  overBudget: number;
  /** A part's text as it goes, '' when it was left out or empty. */
  textOf(key: string): string;
}

/**
 * What a join between two parts costs: a separator of up to three characters, which never adds
 * more than one token to the estimate of the two texts it joins.
 */
export const JOIN_TOKENS = 1;

/** Fits `parts` to `budgetTokens` (Infinity: everything whole); throws a RangeError on a budget that is no number or keys used twice. */
export function fitPrompt(parts: readonly PromptPart[], budgetTokens: number, measure: Measure = estimateTokens): FittedPrompt {
  if (Number.isNaN(budgetTokens)) throw new RangeError('The prompt budget is not a number.');
  const keys = new Set<string>();
  for (const part of parts) {
    if (keys.has(part.key)) throw new RangeError(`Two prompt parts are named "${part.key}".`);
    keys.add(part.key);
  }
  const budget = Math.max(0, budgetTokens);
  const placed = new Map<PromptPart, FittedPart>();
  const leftOut = new Map<PromptPart, LeftOut>();
  let used = 0;
  const roomFor = (part: PromptPart) => Math.max(0, Math.min(budget - used - (placed.size > 0 ? JOIN_TOKENS : 0), part.maxTokens ?? Infinity));
  const place = (part: PromptPart, text: string, shortened: boolean, note?: string) => {
    if (text === '') return;
    const tokens = measure(text);
    used += tokens + (placed.size > 0 ? JOIN_TOKENS : 0);
    placed.set(part, { key: part.key, role: part.role ?? 'user', text, tokens, shortened });
    if (shortened) leftOut.set(part, { key: part.key, whole: false, leftOut: note });
  };
  for (const part of fittingOrder(parts)) {
    const room = roomFor(part);
    if (typeof part.text === 'function') {
      const made = part.text(room);
      if (made.text === '' || measure(made.text) <= room || part.required) place(part, made.text, made.leftOut !== undefined, made.leftOut);
      else leftOut.set(part, { key: part.key, whole: true });
      continue;
    }
    if (part.text === '') continue;
    if (measure(part.text) <= room) {
      place(part, part.text, false);
      continue;
    }
    const shrunk = part.shrink?.(part.text, room, measure);
    if (shrunk && shrunk.text !== '' && measure(shrunk.text) <= room) place(part, shrunk.text, true, shrunk.leftOut);
    // A required part stays whole when it cannot shrink into its room: the budget gives way, not the question.
    else if (part.required) place(part, part.text, false);
    else leftOut.set(part, { key: part.key, whole: true });
  }
  const kept = parts.flatMap((part) => placed.get(part) ?? []);
  return {
    parts: kept,
    leftOut: parts.flatMap((part) => leftOut.get(part) ?? []),
    tokens: used,
    overBudget: Math.max(0, used - budget),
    textOf: (key) => kept.find((part) => part.key === key)?.text ?? '',
  };
}

/**
 * The order parts are fitted in: the required parts of fixed text first (they take what they
 * take), then the required ones that shrink or are made to measure (the rest of the room is
 * theirs), then the others, the highest priority first, the earlier first among equals.
 */
function fittingOrder(parts: readonly PromptPart[]): PromptPart[] {
  const fixed = (part: PromptPart) => typeof part.text === 'string' && !part.shrink;
  const rank = (part: PromptPart) => (part.required ? (fixed(part) ? 0 : 1) : 2);
  return parts
    .map((part, index) => ({ part, index }))
    .sort((a, b) => rank(a.part) - rank(b.part) || (b.part.priority ?? 0) - (a.part.priority ?? 0) || a.index - b.index)
    .map(({ part }) => part);
}

/**
 * The fitted prompt as messages: the parts of one role that follow each other joined by
 * `separator` (up to three characters, so JOIN_TOKENS holds), in the order given.
 */
export function promptMessages(fitted: FittedPrompt, separator = '\n\n'): { role: 'system' | 'user'; text: string }[] {
  const messages: { role: 'system' | 'user'; texts: string[] }[] = [];
  for (const part of fitted.parts) {
    const last = messages[messages.length - 1];
    if (last?.role === part.role) last.texts.push(part.text);
    else messages.push({ role: part.role, texts: [part.text] });
  }
  return messages.map(({ role, texts }) => ({ role, text: texts.join(separator) }));
}
