import * as vscode from 'vscode';
import { commandId } from '../commands';
import { actionLabel } from '../errorActions';
import { abortSignalOf } from '../cancellation';
import type { QuietSearch, SemanticSearchCommands } from '../search/semanticSearch';
import { readHitExcerpts } from '../search/searchPrompt';
import { fencedCode } from '../../shared/fencedCode';
import { linesText } from '../codeExcerpts';

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
      explainUnavailable(outcome.kind, trimmed, stream);
      return {};
    }
    const { excerpts } = await readHitExcerpts(outcome.hits);
    if (excerpts.length === 0) {
      stream.markdown(vscode.l10n.t('Nothing in the search index matches “{0}”.', trimmed));
      return {};
    }
    stream.markdown(vscode.l10n.t('The passages closest in meaning to “{0}”:', trimmed) + '\n\n');
    for (const excerpt of excerpts) {
      const location = new vscode.Location(excerpt.uri, new vscode.Range(excerpt.first - 1, 0, excerpt.last - 1, 0));
      stream.anchor(location, `${excerpt.file}:${excerpt.first}`);
      stream.markdown(` (${linesText(excerpt.first, excerpt.last)})\n\n${fencedCode(excerpt.code, excerpt.language)}\n\n`);
      stream.reference(location);
    }
    return { metadata: { command: 'search', query: trimmed } };
  } finally {
    cancellation.dispose();
  }
}

export function explainUnavailable(kind: Exclude<QuietSearch['kind'], 'hits'>, query: string, stream: vscode.ChatResponseStream): void {
  const say: Record<typeof kind, { text: string; command: vscode.Command }> = {
    noFolder: {
      text: vscode.l10n.t('Semantic search works on a folder: open one first.'),
      command: { command: 'workbench.action.files.openFolder', title: vscode.l10n.t('Open Folder') },
    },
    restricted: {
      text: vscode.l10n.t(
        "Semantic search is off in Restricted Mode: it would send this workspace's files to the GigaChat service. Trust the workspace to use it.",
      ),
      command: { command: 'workbench.trust.manage', title: vscode.l10n.t('Manage Workspace Trust') },
    },
    noKey: {
      text: vscode.l10n.t('No GigaChat authorization key is set. Set one to start chatting.'),
      command: { command: commandId('setAuthorizationKey'), title: actionLabel('setKey') },
    },
    noConsent: {
      text: vscode.l10n.t(
        'Semantic search has not been allowed in this workspace yet, so nothing was sent. Search once ' +
          'with the button below: it shows what would be sent to GigaChat and asks before indexing.',
      ),
      command: { command: commandId('semanticSearch'), title: vscode.l10n.t('Search and Build the Index'), arguments: [query] },
    },
    otherModel: {
      text: vscode.l10n.t(
        'The search index was built with another embeddings model than gigachat.embeddingsModel names now, so it cannot answer, and nothing was sent. ' +
          'Search with the button below: it says what indexing again with the new model costs and asks first.',
      ),
      command: { command: commandId('semanticSearch'), title: vscode.l10n.t('Search and Index Again'), arguments: [query] },
    },
  };
  stream.markdown(say[kind].text);
  stream.button(say[kind].command);
}
