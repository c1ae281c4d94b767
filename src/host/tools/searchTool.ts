import * as vscode from 'vscode';
import type { QuietSearch } from '../search/semanticSearch';
import { readHitExcerpts } from '../search/searchPrompt';
import { abortSignalOf } from '../cancellation';
import { quotedExcerpt } from '../codeExcerpts';
import { progressText, toolText } from './toolText';

export interface SearchInput {
  query: string;
  maxResults?: number;
}

const DEFAULT_RESULTS = 8;
const MAX_RESULTS = 20;

/** What the model is told when the search cannot run, so it can tell the user what to do. */
export const SEARCH_UNAVAILABLE: Record<Exclude<QuietSearch['kind'], 'hits'>, string> = {
  noFolder: 'Semantic search needs a folder open in VS Code; none is open.',
  restricted: 'Semantic search is off in Restricted Mode: the user must trust this workspace first.',
  noKey: 'Semantic search needs a GigaChat authorization key: the user must set one (command "GigaChat: Set Authorization Key").',
  noConsent:
    'Semantic search has not been allowed in this workspace: nothing was sent. The user must run the command "GigaChat: ' +
    'Semantic Search" once and agree to send the workspace\'s files for indexing; until then, use other tools.',
  otherModel:
    "The workspace index was built with another embeddings model than the user's setting names now: nothing was sent. The user must run " +
    'the command "GigaChat: Semantic Search" once and agree to index the workspace again with the new model; until then, use other tools.',
};

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
      if (outcome.kind !== 'hits') return toolText(SEARCH_UNAVAILABLE[outcome.kind]);
      const { excerpts } = await readHitExcerpts(outcome.hits);
      if (excerpts.length === 0) return toolText(`Nothing in the workspace's index matches “${query}”.`);
      return toolText(
        `The ${excerpts.length} passages of the workspace closest in meaning to “${query}”, best first:\n\n${excerpts.map(quotedExcerpt).join('\n\n')}`,
      );
    } finally {
      cancellation.dispose();
    }
  }
}
