import { MASK } from '../workspace/secretShapes';
import { fileKind, type FileKind } from '../search/files/filePriority';
import { estimateTokens } from '../service/tokenCounter';
import type { ChangedFile, WithheldReason } from './sendableChange';
import type { DiffHunk } from './unifiedDiff';

/**
 * A change as the model reads it, within a token budget, the one budgeting both the commit
 * message and the review use: every file named with its statistics (and why its content is not
 * sent, when it is not), then as many of the hunks as fit, the most telling first, shown in the
 * diff's own order. What is left out is said in the text, with counts: the model must never take
 * part of a change for all of it. How a hunk is shown is the caller's (HunkRendering).
 */

/** The lines of a file the model was shown, in the file after the change (1-based, inclusive). */
export interface ShownRange {
  first: number;
  last: number;
}

/**
 * How a hunk is shown: the plain diff, cut at `maxLines` (a commit message reads what a change
 * does), or each line with its number in the file after the change, whole (a review's findings
 * name the lines they are about, anywhere in the hunk).
 */
export interface HunkRendering {
  numbered: boolean;
  maxLines: number;
}

export interface ChangeDigest {
  text: string;
  /** The text's tokens, as estimated (tokenCounter.ts `estimateTokens`). */
  tokens: number;
  /** Hunks shown (whole or cut), of the hunks of the files whose content may be sent. */
  hunksShown: number;
  hunksTotal: number;
  /** Files whose content may be sent but of which some hunks or lines were left out for the budget, each with what was shown. */
  shortened: string[];
  /** The files whose hunks were shown (some or all), with the lines of the file after the change the model saw, by path. */
  shown: Map<string, ShownRange[]>;
}

/** A hunk longer than this is cut to it (a new file of thousands of lines): its start tells what it is. */
export const MAX_HUNK_LINES = 120;

/** For a commit message: the plain diff, long hunks cut. */
export const PLAIN_HUNKS: HunkRendering = { numbered: false, maxLines: MAX_HUNK_LINES };

/** For a review: numbered lines, whole hunks. */
export const NUMBERED_HUNKS: HunkRendering = { numbered: true, maxLines: Infinity };

/** What the model reads of a file whose content is withheld, in place of its hunks. */
const WITHHELD_NOTES: Record<WithheldReason, string> = {
  secret: 'content not sent: the file looks like it holds secrets',
  ignored: 'content not sent: .gitignore excludes the file',
  generated: 'content not sent: dependencies, lock file or generated code',
  outside: 'content not sent: outside the workspace, or reached through a link',
  binary: 'binary file',
};

/** Lines kept for the files' statistics when there are so many files that naming them all would not fit. */
const LIST_SHARE = 0.5;

/** @param budgetTokens the most tokens the digest may take (estimated) */
export function changeDigest(files: readonly ChangedFile[], budgetTokens: number, rendering: HunkRendering = PLAIN_HUNKS): ChangeDigest {
  const list = fileList(files, Math.floor(budgetTokens * LIST_SHARE));
  let room = budgetTokens - estimateTokens(list.join('\n')) - NOTE_ROOM;
  const candidates = rankedHunks(files);
  const chosen = new Map<DiffHunk, string>();
  for (const { hunk, file } of candidates) {
    const text = hunkText(hunk, rendering);
    const cost = estimateTokens(text) + estimateTokens(file.path) + 2;
    if (cost > room) continue;
    chosen.set(hunk, text);
    room -= cost;
  }
  const body: string[] = [];
  const shortened: string[] = [];
  const ranges = new Map<string, ShownRange[]>();
  for (const file of files) {
    if (file.withheld) continue;
    const shown = file.hunks.filter((hunk) => chosen.has(hunk));
    if (shown.length > 0)
      ranges.set(
        file.path,
        shown.map((hunk) => shownRange(hunk, rendering.maxLines)),
      );
    const cut = shown.filter((hunk) => hunk.lines.length > rendering.maxLines).length;
    if (shown.length < file.hunks.length || cut > 0)
      shortened.push(`${file.path}: ${shown.length} of ${file.hunks.length} hunks shown${cut > 0 ? `, ${cut} of them cut` : ''}`);
    if (shown.length > 0) body.push('', `--- ${file.path}`, ...shown.map((hunk) => chosen.get(hunk)!));
  }
  const note = leftOutNote(candidates.length, chosen.size, shortened, list.length - 1 === files.length, rendering.maxLines);
  const text = [...list, ...body, ...(note ? ['', note] : [])].join('\n');
  return { text, tokens: estimateTokens(text), hunksShown: chosen.size, hunksTotal: candidates.length, shortened, shown: ranges };
}

/** Room kept for the note of what was left out. */
const NOTE_ROOM = 200;

function fileList(files: readonly ChangedFile[], budgetTokens: number): string[] {
  const added = files.reduce((sum, file) => sum + file.added, 0);
  const removed = files.reduce((sum, file) => sum + file.removed, 0);
  const lines = [`${files.length} ${plural(files.length, 'file')} changed, ${added} ${plural(added, 'line')} added, ${removed} removed:`];
  let used = estimateTokens(lines[0]);
  for (const [index, file] of files.entries()) {
    const line = fileLine(file);
    used += estimateTokens(line) + 1;
    if (used > budgetTokens) {
      const rest = files.slice(index);
      lines.push(
        `…and ${rest.length} more files (${rest.reduce((s, f) => s + f.added, 0)} lines added, ${rest.reduce((s, f) => s + f.removed, 0)} removed), not listed for length.`,
      );
      break;
    }
    lines.push(line);
  }
  return lines;
}

/** The model reads English: "1 line", "2 lines". */
function plural(count: number, noun: string): string {
  return count === 1 ? noun : `${noun}s`;
}

function fileLine(file: ChangedFile): string {
  const name = file.oldPath ? `${file.oldPath} → ${file.path}` : file.path;
  const note = file.withheld
    ? ` (${WITHHELD_NOTES[file.withheld]})`
    : file.masked
      ? ` (${file.masked} ${plural(file.masked, 'value')} that look like secrets masked as ${MASK})`
      : '';
  return `- ${file.status} ${name} +${file.added} -${file.removed}${note}`;
}

function hunkText(hunk: DiffHunk, rendering: HunkRendering): string {
  const lines = hunk.lines.slice(0, rendering.maxLines);
  const cut = hunk.lines.length - lines.length;
  const shown = rendering.numbered ? numberedLines(hunk, lines) : lines;
  return [hunk.header, ...shown, ...(cut > 0 ? [`(${cut} more lines of this hunk left out)`] : [])].join('\n');
}

/** Each line with its number in the new file for kept and added lines, blank for removed ones. */
function numberedLines(hunk: DiffHunk, lines: readonly string[]): string[] {
  const width = String(hunk.newStart + hunk.newLines).length;
  let line = hunk.newStart;
  return lines.map((text) => {
    const sign = text[0];
    const number = sign === '-' ? ''.padStart(width) : String(line++).padStart(width);
    return `${number} ${sign} ${text.slice(1)}`;
  });
}

/** The lines a hunk shows of the new file (up to a cut); a hunk that only removes shows the line it removed before. */
function shownRange(hunk: DiffHunk, maxLines: number): ShownRange {
  const first = Math.max(1, hunk.newStart);
  const newLines = hunk.lines.length > maxLines ? hunk.lines.slice(0, maxLines).filter((line) => !line.startsWith('-')).length : hunk.newLines;
  return { first, last: Math.max(first, hunk.newStart + newLines - 1) };
}

const KIND_ORDER: Record<FileKind, number> = { source: 0, test: 1, vendored: 2 };

/**
 * The hunks of the files that may be sent, the most telling first: every file's first hunk before
 * any file's second (a change touching ten files is told by all ten), source before tests before
 * vendored code, and among those the file with more changed lines first.
 */
function rankedHunks(files: readonly ChangedFile[]): { hunk: DiffHunk; file: ChangedFile }[] {
  const sendable = files
    .filter((file) => !file.withheld)
    .sort((a, b) => KIND_ORDER[fileKind(a.path)] - KIND_ORDER[fileKind(b.path)] || b.added + b.removed - (a.added + a.removed));
  const ranked: { hunk: DiffHunk; file: ChangedFile }[] = [];
  const rounds = Math.max(0, ...sendable.map((file) => file.hunks.length));
  for (let round = 0; round < rounds; round++) for (const file of sendable) if (round < file.hunks.length) ranked.push({ hunk: file.hunks[round], file });
  return ranked;
}

/** Files named in the note of what was left out; the rest are counted, so the note stays within NOTE_ROOM. */
const NOTE_FILES = 5;

function leftOutNote(total: number, shown: number, shortened: readonly string[], listedAll: boolean, maxLines: number): string | undefined {
  if (shortened.length === 0) return undefined;
  const named = shortened.slice(0, NOTE_FILES);
  const more = shortened.length - named.length;
  return (
    `Left out for length: ${total - shown} of ${total} hunks${Number.isFinite(maxLines) ? `, and the end of any hunk longer than ${maxLines} lines` : ''} ` +
    `(${named.join('; ')}${more > 0 ? `; and ${more} more files` : ''}). ` +
    (listedAll ? 'Every changed file is listed above with its statistics.' : 'The files listed above are named with their statistics, the rest counted.')
  );
}
