import * as vscode from 'vscode';
import type { Prompt, SearchHit } from '../../core';
import { countMessage } from '../countMessage';
import { passageNotices, quotedPassage, readPassages, RESULTS_BUDGET_TOKENS } from './passages';

/**
 * A chat turn that asks `query` about the search results, each passage under its citation.
 * Results whose file has gone since the search are left out, and the turn says so; undefined when
 * every one has gone.
 */
export async function searchResultsPrompt(query: string, hits: readonly SearchHit[]): Promise<Prompt | undefined> {
  const read = await readPassages(hits, RESULTS_BUDGET_TOKENS);
  if (read.passages.length === 0) return undefined;
  const notices = passageNotices(read);
  const text = `${vscode.l10n.t('Using these excerpts from my workspace, answer: {0}', query)}\n\n${read.passages.map(quotedPassage).join('\n\n')}`;
  return {
    text,
    contextLabel: countMessage('{0|# search result|# search results}', read.passages.length),
    notice: notices.length ? notices.join(' ') : undefined,
  };
}
