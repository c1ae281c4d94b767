import * as vscode from 'vscode';
import { maskedNote } from '../../core';
import type { QuietSearch } from '../search/semanticSearch';
import { quotedPassage, readPassages, RESULTS_BUDGET_TOKENS } from '../search/passages';
import { unavailableMessage } from '../search/searchUnavailable';
import { abortSignalOf } from '../cancellation';
import { progressText, toolText } from './toolText';

export interface SearchInput {
  query: string;
  maxResults?: number;
}

const DEFAULT_RESULTS = 8;
const MAX_RESULTS = 20;

/**
 * `gigachat_searchWorkspace`: finds code by meaning with the workspace's semantic index, for any
 * model in agent mode. Under the search command's rules: before the user has agreed to indexing,
 * nothing is listed or sent, and the result says what the user must do.
 */
export class SearchTool implements vscode.LanguageModelTool<SearchInput> {
  constructor(private readonly search: (query: string, k: number, signal: AbortSignal) => Promise<QuietSearch>) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<SearchInput>): vscode.PreparedToolInvocation {
    return { invocationMessage: progressText(vscode.l10n.t('Searching the workspace for “{0}”', String(options.input?.query))) };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<SearchInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const query = typeof options.input?.query === 'string' ? options.input.query.trim() : '';
    if (!query) return toolText('Give a query: what the code you are looking for does.');
    const k = Math.min(MAX_RESULTS, Math.max(1, Math.floor(Number(options.input.maxResults) || DEFAULT_RESULTS)));
    const cancellation = abortSignalOf(token);
    try {
      const outcome = await this.search(query, k, cancellation.signal);
      // The model is told what the user would be, so that it can say what to do.
      if (outcome.kind !== 'hits') return toolText(unavailableMessage(outcome.kind).message);
      const { passages } = await readPassages(outcome.hits, RESULTS_BUDGET_TOKENS);
      if (passages.length === 0) return toolText(`Nothing in the workspace's index matches “${query}”.`);
      const masked = passages.reduce((sum, passage) => sum + passage.masked, 0);
      return toolText(
        `The ${passages.length} passages of the workspace closest in meaning to “${query}”, best first:${maskedNote(masked)}\n\n${passages.map(quotedPassage).join('\n\n')}`,
      );
    } finally {
      cancellation.dispose();
    }
  }
}
