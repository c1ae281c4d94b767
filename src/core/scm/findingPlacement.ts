import type { Finding } from './reviewFindings';
import type { ShownRange } from './changeDigest';

/**
 * Where each finding goes in the editor. The model saw only the hunks it was sent, so:
 * - a finding about a file it was not shown (not in the change, withheld, left out for lack of
 *   room, or deleted by the change: no line to show it on) is dropped, and counted;
 * - a finding on a shown file but on a line outside what it was shown is kept at the file's first
 *   line, marked `outsideChange` (the user still reads it, the editor never points at a line the
 *   model could not have read), and without its suggestion: a replacement for lines the model never
 *   saw is a guess;
 * - an `endLine` before `line` is read as the one line; one past the shown hunk is cut to its end,
 *   and then the suggestion goes: it replaces lines up to the end the model named, so put in
 *   place of the shorter span it would leave the lines past the hunk's end written twice.
 * Pure, so it is tested under plain Node.
 */

export interface PlacedFinding extends Finding {
  /** The path as the change names it (the model's, matched leniently). */
  path: string;
  /** Lines it is shown on, 1-based and inclusive, in the file after the change. */
  first: number;
  last: number;
  /** It named a line outside the change: shown at the top of the file, with the line it named. */
  outsideChange?: { line: number };
}

export interface Placement {
  placed: PlacedFinding[];
  /** Findings about files the model was not shown. */
  dropped: number;
}

export function placeFindings(findings: readonly Finding[], shown: ReadonlyMap<string, readonly ShownRange[]>, deleted: ReadonlySet<string>): Placement {
  const placed: PlacedFinding[] = [];
  let dropped = 0;
  for (const finding of findings) {
    const path = matchPath(finding.path, shown);
    const ranges = path === undefined ? undefined : shown.get(path);
    if (path === undefined || !ranges || deleted.has(path)) {
      dropped++;
      continue;
    }
    const range = ranges.find((each) => finding.line >= each.first && finding.line <= each.last);
    if (!range) {
      placed.push({ ...withoutSuggestion(finding), path, first: 1, last: 1, outsideChange: { line: finding.line } });
      continue;
    }
    const end = finding.endLine === undefined || finding.endLine < finding.line ? finding.line : finding.endLine;
    if (end > range.last) placed.push({ ...withoutSuggestion(finding), path, first: finding.line, last: range.last });
    else placed.push({ ...finding, path, first: finding.line, last: end });
  }
  return { placed, dropped };
}

function withoutSuggestion(finding: Finding): Finding {
  const { suggestion: _unused, ...rest } = finding;
  return rest;
}

/** The change's path the model meant: as given, or without a leading `./`, `/` or git's `a/` `b/`. */
function matchPath(given: string, shown: ReadonlyMap<string, unknown>): string | undefined {
  const plain = given.trim().replace(/\\/g, '/');
  if (shown.has(plain)) return plain;
  const stripped = plain.replace(/^(\.\/|\/)+/, '');
  if (shown.has(stripped)) return stripped;
  const unprefixed = stripped.replace(/^[ab]\//, '');
  return shown.has(unprefixed) ? unprefixed : undefined;
}
