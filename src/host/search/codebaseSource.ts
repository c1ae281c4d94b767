import * as vscode from 'vscode';
import { codebaseBudget, CodebaseUnavailable, modelLimits, relevantHits, type CodebaseSource, type FoundContext } from '../../core';
import type { SettingsReader } from '../settings/settingsReader';
import { countMessage } from '../countMessage';
import { passageNotices, quotedPassage, readPassages, type ReadPassages } from './passages';
import type { QuietSearch, SemanticSearchCommands } from './semanticSearch';
import { unavailableMessage } from './searchUnavailable';

/** Chunks asked of the index for one question: more than fit most budgets, so the budget decides, not the count. */
const CANDIDATES = 40;
/**
 * Chunks scoring under this share of the best are not sent: each passage costs tokens the model
 * reads, and one much further from the question than the best rarely helps the answer (the search
 * picker, which costs nothing to show, keeps more: down to a tenth).
 */
const RELEVANT_SHARE = 0.5;

/**
 * Codebase context from the workspace's semantic search: the passages closest to a question,
 * merged per file and taken best first within the budget, under the search command's rules
 * (before the user agreed to indexing nothing is listed, indexed or sent).
 */
export function workspaceCodebase(search: Pick<SemanticSearchCommands, 'searchQuietly'>, settings: Pick<SettingsReader, 'get'>): CodebaseSource {
  return {
    find: async (question, room, signal) => {
      const limits = modelLimits(room.model, settings.get('modelTokenLimits'));
      const budget = codebaseBudget({
        maxInputTokens: limits.maxInputTokens,
        answerTokens: room.answerTokens ?? limits.maxOutputTokens,
        conversationTokens: room.conversationTokens,
      });
      const found = await findPassages(search, question, budget, signal);
      if (found.kind !== 'passages') {
        const { message, action } = unavailableMessage(found.kind);
        throw new CodebaseUnavailable({ kind: 'codebase', message, actions: [action] });
      }
      return foundContext(found);
    },
  };
}

export type FoundPassages = ({ kind: 'passages'; indexedFiles?: number } & ReadPassages) | Exclude<QuietSearch, { kind: 'hits' }>;

/** The passages closest to `question` that fit `budget` tokens, read from their files now; or why the workspace cannot be searched. */
export async function findPassages(
  search: Pick<SemanticSearchCommands, 'searchQuietly'>,
  question: string,
  budget: number,
  signal?: AbortSignal,
): Promise<FoundPassages> {
  const outcome = await search.searchQuietly(question, CANDIDATES, signal);
  if (outcome.kind !== 'hits') return outcome;
  const read = await readPassages(relevantHits(outcome.hits, RELEVANT_SHARE), budget);
  return { kind: 'passages', ...read, indexedFiles: outcome.indexedFiles };
}

export function foundContext(found: Extract<FoundPassages, { kind: 'passages' }>): FoundContext {
  const { passages, indexedFiles } = found;
  const notices = [
    indexedFiles !== undefined
      ? countMessage('The workspace is still being indexed: this answer uses the {0|# file|# files} indexed so far.', indexedFiles)
      : '',
    passages.length === 0 ? vscode.l10n.t('Nothing in the workspace index matched the question: it was asked without codebase context.') : '',
    ...passageNotices(found),
  ].filter(Boolean);
  return {
    intro: vscode.l10n.t(
      'Answer using these passages of my workspace. When you use one, cite it as it is named above its code (path:line), so it becomes a link.',
    ),
    // Each passage's lines as they are now, under the citation of the lines it starts and ends at.
    passages: passages.map((passage) => ({ source: passage.location, quoted: quotedPassage(passage) })),
    outro: vscode.l10n.t('My question:'),
    notice: notices.join(' ') || undefined,
  };
}
