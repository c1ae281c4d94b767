import * as vscode from 'vscode';
import { hitExcerpt, MAX_EXCERPT_CHARS, type SearchHit } from '../../core';
import type { Prompt } from '../chat/storedTurns';
import { quotedExcerpt, relativeFile } from '../codeExcerpts';
import { isRefusal, WorkspacePort } from '../workspace/workspacePort';
import { countMessage } from '../countMessage';

/** Excerpts beyond this many characters are left out, so the question fits the model's context. */
const MAX_CONTEXT_CHARS = 12_000;

/** A search result read back from its file, as much as a question can quote. */
export interface HitExcerpt {
  uri: vscode.Uri;
  file: string;
  /** 1-based, inclusive. */
  first: number;
  last: number;
  code: string;
  language: string;
}

/**
 * The results' excerpts, read from their files now, up to `maxCharacters` in all: how many were
 * left out because their file has gone since the search, and how many were shortened.
 */
export async function readHitExcerpts(
  hits: readonly SearchHit[],
  maxCharacters = MAX_CONTEXT_CHARS,
): Promise<{ excerpts: HitExcerpt[]; gone: number; cut: number }> {
  const excerpts: HitExcerpt[] = [];
  let used = 0;
  let gone = 0;
  let cut = 0;
  // Judged again as they are read: a file indexed earlier may have been replaced by a link since.
  const port = new WorkspacePort();
  for (const hit of hits) {
    const file = await port.judge(vscode.Uri.parse(hit.path));
    const document = isRefusal(file) || !file.exists ? undefined : await vscode.workspace.openTextDocument(file.uri).then(undefined, () => undefined);
    if (!document) {
      gone++;
      continue;
    }
    const lines = document.getText(new vscode.Range(hit.startLine, 0, hit.endLine, Number.MAX_SAFE_INTEGER));
    const { code, cut: shortened } = hitExcerpt(lines, hit.preview);
    if (excerpts.length > 0 && used + code.length > maxCharacters) break;
    used += code.length;
    if (shortened) cut++;
    excerpts.push({
      uri: document.uri,
      file: relativeFile(document.uri),
      first: hit.startLine + 1,
      last: hit.endLine + 1,
      code,
      language: document.languageId,
    });
  }
  return { excerpts, gone, cut };
}

/**
 * A chat turn that asks `query` about the search results, each excerpt with its file and lines.
 * Results whose file has gone since the search are left out, and the turn says so; undefined when
 * every one has gone.
 */
export async function searchResultsPrompt(query: string, hits: readonly SearchHit[]): Promise<Prompt | undefined> {
  const { excerpts, gone, cut } = await readHitExcerpts(hits);
  if (excerpts.length === 0) return undefined;
  const notices = [
    gone > 0
      ? countMessage('{0|One result was left out: its file was|# of the results were left out: their files were} deleted or moved after the search.', gone)
      : '',
    excerpts.length + gone < hits.length
      ? countMessage(
          "Only the first {0|#} of {1|# result|# results} were included, to keep the question within the model's limits.",
          excerpts.length,
          hits.length,
        )
      : '',
    cut > 0
      ? countMessage(
          '{0|# of the results is|# of the results are} in lines too long to quote whole: {1|# character|# characters} from where each one starts were included.',
          cut,
          MAX_EXCERPT_CHARS,
        )
      : '',
  ].filter(Boolean);
  const notice = notices.length ? notices.join(' ') : undefined;
  const text = `${vscode.l10n.t('Using these excerpts from my workspace, answer: {0}', query)}\n\n${excerpts.map(quotedExcerpt).join('\n\n')}`;
  return { text, contextLabel: countMessage('{0|# search result|# search results}', excerpts.length), notice };
}
