import * as path from 'node:path';
import * as vscode from 'vscode';
import { maskedHead } from '../../core';
import { countMessage } from '../countMessage';
import { fencedCode } from '../../shared/fencedCode';

/** Longer selections are cut (with a visible notice) so one request stays within the model's limits. */
export const MAX_SELECTION_CHARS = 12_000;

/** Code from a file of the workspace, as a chat message quotes it. Lines are 1-based. */
export interface CodeExcerpt {
  /** Relative to the workspace folder (or the base name, for a file outside the workspace). */
  file: string;
  first: number;
  last: number;
  language: string;
  code: string;
  /** The selection was longer than `MAX_SELECTION_CHARS` and `code` is its beginning. */
  trimmed: boolean;
  /** The whole file, not a selection in it: named without line numbers. */
  wholeFile?: boolean;
  /** How many values in `code` that look like a token or password are masked (secretShapes.ts). */
  masked?: number;
}

/** The selected code of an editor, trimmed to `MAX_SELECTION_CHARS`. */
export function selectedExcerpt(document: vscode.TextDocument, selection: vscode.Range): CodeExcerpt {
  const first = selection.start.line + 1;
  // A selection that ends at the start of a line (whole lines selected) does not include that line.
  const last = selection.end.character === 0 && selection.end.line > selection.start.line ? selection.end.line : selection.end.line + 1;
  return excerpt(document, document.getText(selection), first, last, false);
}

/** A whole file, trimmed to `MAX_SELECTION_CHARS`. */
export function fileExcerpt(document: vscode.TextDocument): CodeExcerpt {
  return excerpt(document, document.getText(), 1, document.lineCount, true);
}

/** Values that look like a token or password masked (maskedHead). */
function excerpt(document: vscode.TextDocument, selected: string, first: number, last: number, wholeFile: boolean): CodeExcerpt {
  const { text: code, masked, trimmed } = maskedHead(selected, MAX_SELECTION_CHARS);
  return {
    file: relativeFile(document.uri),
    first,
    last,
    language: document.languageId,
    code,
    trimmed,
    wholeFile,
    masked,
  };
}

/** What the user is told under a message that quotes `excerpts`: that one was trimmed, that values were masked. */
export function excerptNotice(excerpts: readonly CodeExcerpt[]): string | undefined {
  const masked = excerpts.reduce((sum, excerpt) => sum + (excerpt.masked ?? 0), 0);
  const notices = [
    excerpts.some((excerpt) => excerpt.trimmed)
      ? countMessage('The selection was trimmed to its first {0|# character|# characters}.', MAX_SELECTION_CHARS)
      : '',
    masked > 0 ? maskedNotice(masked) : '',
  ].filter(Boolean);
  return notices.length > 0 ? notices.join(' ') : undefined;
}

/** What the user is told when code sent had values masked that look like a token or password (secretShapes.ts). */
export function maskedNotice(count: number): string {
  return countMessage('Replaced with «masked» before sending, as they look like a token or password: {0|# value|# values}.', count);
}

/** `retry.ts:2–4` (or `retry.ts`, a whole file): short enough for a chip above the message. */
export function excerptLabel(excerpt: CodeExcerpt): string {
  const name = path.basename(excerpt.file);
  if (excerpt.wholeFile) return name;
  return `${name}:${excerpt.first === excerpt.last ? excerpt.first : `${excerpt.first}–${excerpt.last}`}`;
}

/** Where code comes from: its file and lines. */
type ExcerptPlace = Pick<CodeExcerpt, 'file' | 'first' | 'last' | 'wholeFile'>;

/** `src/retry.ts, lines 2–4` (or `src/retry.ts`, a whole file). */
export function excerptLocation(excerpt: ExcerptPlace): string {
  return excerpt.wholeFile ? excerpt.file : `${excerpt.file}, ${linesText(excerpt.first, excerpt.last)}`;
}

/** Code as a message quotes it: where it comes from, then the code in a fence. */
export function quotedExcerpt(excerpt: ExcerptPlace & Pick<CodeExcerpt, 'code' | 'language'>): string {
  return `${excerptLocation(excerpt)}\n${fencedCode(excerpt.code, excerpt.language)}`;
}

/** `line 3`, `lines 2–4` (1-based). */
export function linesText(first: number, last: number): string {
  return first === last ? vscode.l10n.t('line {0}', String(first)) : vscode.l10n.t('lines {0}–{1}', String(first), String(last));
}

export function relativeFile(uri: vscode.Uri): string {
  // With several folders open, the folder's name comes first: it tells the model which project.
  return vscode.workspace.asRelativePath(uri) || path.basename(uri.fsPath);
}
