import * as vscode from 'vscode';
import { actionLabel } from '../errors/errorActions';
import { abortSignalOf } from '../cancellation';
import type { SemanticSearchCommands } from '../search/semanticSearch';
import { readPassages, RESULTS_BUDGET_TOKENS } from '../search/passages';
import { unavailableCommand, unavailableMessage, type SearchUnavailable } from '../search/searchUnavailable';
import { fencedCode } from '../../shared/fencedCode';
import { linesText } from '../explain/codeExcerpts';

const RESULTS = 8;

/**
 * `@gigachat /search <query>`: the workspace's passages closest in meaning, each a link that opens
 * the file at its lines, with its code. Under the search command's rules: before the user has
 * agreed to indexing nothing is sent, and the answer says what to do, with the button that does it.
 */
export async function searchCommand(
  query: string,
  search: Pick<SemanticSearchCommands, 'searchQuietly'>,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const trimmed = query.trim();
  if (!trimmed) {
    stream.markdown(vscode.l10n.t('Say what to look for: `@gigachat /search where the retries are counted`.'));
    return {};
  }
  const cancellation = abortSignalOf(token);
  try {
    stream.progress(vscode.l10n.t('Searching the workspace…'));
    const outcome = await search.searchQuietly(trimmed, RESULTS, cancellation.signal);
    if (outcome.kind !== 'hits') {
      explainUnavailable(outcome.kind, stream);
      return {};
    }
    const { passages } = await readPassages(outcome.hits, RESULTS_BUDGET_TOKENS);
    if (passages.length === 0) {
      stream.markdown(vscode.l10n.t('Nothing in the search index matches “{0}”.', trimmed));
      return {};
    }
    stream.markdown(vscode.l10n.t('The passages closest in meaning to “{0}”:', trimmed) + '\n\n');
    for (const passage of passages) {
      const { file, first, last } = passage.location;
      const location = new vscode.Location(passage.uri, new vscode.Range(first - 1, 0, last - 1, 0));
      stream.anchor(location, `${file}:${first}`);
      stream.markdown(` (${linesText(first, last)})\n\n${fencedCode(passage.text, passage.language)}\n\n`);
      stream.reference(location);
    }
    return { metadata: { command: 'search', query: trimmed } };
  } finally {
    cancellation.dispose();
  }
}

/** Why the workspace cannot be searched, and the button that fixes it. */
export function explainUnavailable(kind: SearchUnavailable, stream: vscode.ChatResponseStream): void {
  const { message, action } = unavailableMessage(kind);
  stream.markdown(message);
  stream.button(unavailableCommand(kind, actionLabel(action)));
}
