import * as vscode from 'vscode';
import { fitPassages, MAX_EXCERPT_CHARS, mergeHits, quotedLines, type Passage, type QuotedPassage, type SearchHit } from '../../core';
import { fencedCode } from '../../shared/fencedCode';
import { citationText, type FileLocation } from '../../shared/fileLinks';
import { maskedNotice, relativeFile } from '../explain/codeExcerpts';
import { countMessage } from '../countMessage';
import { isRefusal, WorkspacePort } from '../workspace/workspacePort';

/**
 * What search results may take of a question when nothing else sets the budget (`/search`, the
 * search tool, asking about the search command's results): about 12,000 characters.
 */
export const RESULTS_BUDGET_TOKENS = 4_000;

/** A passage of the workspace as its file holds it now, with where it is as the chat names and cites it. */
export interface ReadPassage extends QuotedPassage {
  uri: vscode.Uri;
  /** The file's path as the chat names it (relative to the workspace). */
  file: string;
  language: string;
  /** Its file and 1-based lines, after the budget (which may have cut its last ones). */
  location: FileLocation;
  /** It lies in lines too long to quote whole: `text` is {@link MAX_EXCERPT_CHARS} from where it starts. */
  cut: boolean;
  /** How many values in `text` that look like a token or password are masked. */
  masked: number;
}

export interface ReadPassages {
  /** Best first. */
  passages: ReadPassage[];
  /** Left out because their file has gone since the search, or may no longer be read (a link, a rule that excludes it). */
  gone: number;
  /** Left out for the budget. */
  left: number;
}

/**
 * The one way from search hits to what a question quotes: the chunks of a file that touch are
 * merged into one passage, each passage is read from its file now (judged again by the workspace
 * port), and the best are taken within `budget` tokens (see `fitPassages`).
 */
export async function readPassages(hits: readonly SearchHit[], budget: number): Promise<ReadPassages> {
  const port = new WorkspacePort();
  const read = await Promise.all(mergeHits(hits).map((passage) => readPassage(passage, port)));
  const found = read.filter((passage) => passage !== undefined);
  const { chosen, left } = fitPassages(found, budget);
  const passages = chosen.map((passage) => ({ ...passage, location: { file: passage.file, first: passage.startLine + 1, last: passage.endLine + 1 } }));
  return { passages, gone: read.length - found.length, left };
}

/** A passage as a question quotes it: its citation (path:line, which the chat turns into a link), then its code. */
export function quotedPassage(passage: ReadPassage): string {
  return `${citationText(passage.location)}\n${fencedCode(passage.text, passage.language)}`;
}

/** What the question leaves out of the passages, and what it quotes only in part, as a notice under it. */
export function passageNotices({ passages, gone, left }: ReadPassages): string[] {
  const cut = passages.filter((passage) => passage.cut).length;
  const masked = passages.reduce((sum, passage) => sum + passage.masked, 0);
  return [
    gone > 0
      ? countMessage('{0|One result was left out: its file was|# of the results were left out: their files were} deleted or moved after the search.', gone)
      : '',
    left > 0 ? countMessage("{0|# more passage was|# more passages were} left out, to keep the question within the model's limits.", left) : '',
    cut > 0
      ? countMessage(
          '{0|# of the results is|# of the results are} in lines too long to quote whole: {1|# character|# characters} from where each one starts were included.',
          cut,
          MAX_EXCERPT_CHARS,
        )
      : '',
    masked > 0 ? maskedNotice(masked) : '',
  ].filter(Boolean);
}

/**
 * The passage's lines as its file holds them now; undefined when the file has gone since it was
 * indexed, or the workspace port refuses it now (a link put in its place, a rule that excludes it).
 */
async function readPassage(passage: Passage, port: WorkspacePort): Promise<Omit<ReadPassage, 'location'> | undefined> {
  const file = await port.judge(vscode.Uri.parse(passage.path));
  if (isRefusal(file) || !file.exists) return undefined;
  const document = await vscode.workspace.openTextDocument(file.uri).then(undefined, () => undefined);
  if (!document || passage.startLine >= document.lineCount) return undefined;
  const endLine = Math.min(passage.endLine, document.lineCount - 1);
  const lines = document.getText(new vscode.Range(passage.startLine, 0, endLine, Number.MAX_SAFE_INTEGER));
  const { code, cut, masked } = quotedLines(lines, passage.preview);
  return { ...passage, endLine, text: code, cut, masked, uri: document.uri, file: relativeFile(document.uri), language: document.languageId };
}
