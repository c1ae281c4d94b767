import { estimateTokens } from '../service/tokenCounter';
import { fitItems } from '../prompt/shrinking';
import type { SearchHit } from './indexerTypes';

/**
 * Codebase context: which passages of the workspace go with a question, within a token budget.
 * Pure: the host searches, reads the passages' lines from their files and quotes them.
 */

/** Lines of one file that go with a question as one excerpt: chunks that touch or overlap, merged. 0-based, inclusive. */
export interface Passage {
  path: string;
  startLine: number;
  endLine: number;
  /** The best score of the chunks merged into it. */
  score: number;
  /** The preview of that best chunk (its first line with text): where to quote from when its lines are too long to quote whole. */
  preview: string;
}

/** The share of the model's input the context may take at most, so the conversation keeps room. */
const MAX_CONTEXT_SHARE = 0.25;
/** However large the model: more passages cost more and rarely help (the best come first). */
const MAX_CONTEXT_TOKENS = 12_000;
/** What the instruction and each excerpt's heading and fence take, beside the code. */
const OVERHEAD_TOKENS = 200;

/**
 * The tokens the passages of one question may take: what the model's input leaves once the
 * conversation so far and the answer are counted, at most a quarter of the input and
 * {@link MAX_CONTEXT_TOKENS}. 0 when nothing is left.
 */
export function codebaseBudget(limits: { maxInputTokens: number; answerTokens: number; conversationTokens: number }): number {
  const { maxInputTokens, answerTokens, conversationTokens } = limits;
  const free = maxInputTokens - answerTokens - conversationTokens - OVERHEAD_TOKENS;
  return Math.max(0, Math.min(free, Math.floor(maxInputTokens * MAX_CONTEXT_SHARE), MAX_CONTEXT_TOKENS));
}

/**
 * The hits as passages, best first: the chunks of one file that overlap or touch (a line apart
 * at most) are one passage, so the model reads a function once, not in pieces, and the best
 * score of its chunks places it.
 */
export function mergeHits(hits: readonly SearchHit[]): Passage[] {
  const byFile = new Map<string, SearchHit[]>();
  for (const hit of hits) byFile.set(hit.path, [...(byFile.get(hit.path) ?? []), hit]);
  const passages: Passage[] = [];
  for (const [path, fileHits] of byFile) {
    const sorted = [...fileHits].sort((a, b) => a.startLine - b.startLine);
    let current: Passage | undefined;
    for (const hit of sorted) {
      if (current && hit.startLine <= current.endLine + 1) {
        current.endLine = Math.max(current.endLine, hit.endLine);
        if (hit.score > current.score) Object.assign(current, { score: hit.score, preview: hit.preview });
        continue;
      }
      current = { path, startLine: hit.startLine, endLine: hit.endLine, score: hit.score, preview: hit.preview };
      passages.push(current);
    }
  }
  return passages.sort((a, b) => b.score - a.score);
}

/** A passage with the text it quotes. */
export interface QuotedPassage extends Passage {
  text: string;
}

/**
 * The passages that fit `budget` tokens, best first. One that does not fit in what is left is
 * passed over for the smaller ones after it, so one huge passage (a minified file, a long
 * generated table) does not keep out everything else; but when even the best does not fit, its
 * first lines that do are taken (a question with codebase context always has some). `left`: how
 * many passages were left out for the budget. The prompt layer's item fitting (shrinking.ts
 * `fitItems`), each passage costing its text and its join.
 */
export function fitPassages<T extends QuotedPassage>(passages: readonly T[], budget: number): { chosen: T[]; left: number } {
  const fitted = fitItems(passages, budget, {
    textOf: (passage) => passage.text,
    measure: estimateTokens,
    cut: (passage, room) => (passage === passages[0] ? firstLinesWithin(passage, room) : undefined),
  });
  return { chosen: fitted.kept, left: fitted.leftOut };
}

/** The passage's first lines whose text fits `budget` tokens (at least its first line, cut). */
function firstLinesWithin<T extends QuotedPassage>(passage: T, budget: number): T {
  const lines = passage.text.split('\n');
  let text = '';
  let count = 0;
  for (const line of lines) {
    const next = count === 0 ? line : `${text}\n${line}`;
    if (estimateTokens(next) > budget) break;
    text = next;
    count++;
  }
  if (count === 0) return { ...passage, endLine: passage.startLine, text: lines[0].slice(0, budget * 3) };
  return { ...passage, endLine: passage.startLine + count - 1, text };
}
