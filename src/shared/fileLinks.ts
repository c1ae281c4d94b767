/**
 * Citations of workspace files in replies, `src/app.ts:12` or `src/app.ts:12-20`: the view makes
 * each a link, the host opens the file at those lines. Shared, so both read them alike; imports nothing.
 */

/**
 * A file path (folders, none of them `.` or `..`, and a name with an extension that starts with a
 * letter), `:` and a line, or a range of lines.
 */
const CITATION_SOURCE = String.raw`((?:(?!\.\.?/)[\w@+.-]+/)*[\w@+-][\w@+.-]*\.[A-Za-z][\w]*):(\d{1,7})(?:[-–](\d{1,7}))?`;

/** Every citation in a text; not one glued to a longer word or path on either side. */
export function citationPattern(): RegExp {
  return new RegExp(String.raw`(?<![\w/.@+-])${CITATION_SOURCE}(?![\w/])`, 'g');
}

/** Where a citation leads: a path as written (relative to the workspace) and 1-based lines. */
export interface FileLocation {
  file: string;
  first: number;
  last: number;
}

/** A citation written alone (a link's text, an inline code span); undefined for anything else. */
export function parseCitation(text: string): FileLocation | undefined {
  const match = new RegExp(`^${CITATION_SOURCE}$`).exec(text.trim());
  return match ? locationOf(match) : undefined;
}

export function locationOf(match: RegExpExecArray): FileLocation {
  const first = Number(match[2]);
  const last = match[3] === undefined ? first : Number(match[3]);
  return { file: match[1], first: Math.min(first, last), last: Math.max(first, last) };
}

/** The address of a citation link in the view; anything but this form is never opened as a file. */
export const FILE_LINK_PREFIX = '#file:';

/** How an answer cites lines of a file: `src/app.ts:12`, or `src/app.ts:12-20`. */
export function citationText(location: FileLocation): string {
  const { file, first, last } = location;
  return first === last ? `${file}:${first}` : `${file}:${first}-${last}`;
}

export function fileLinkHref(location: FileLocation): string {
  return FILE_LINK_PREFIX + citationText(location);
}

/** The location a citation link's address names; undefined for any other address. */
export function parseFileLinkHref(href: string): FileLocation | undefined {
  return href.startsWith(FILE_LINK_PREFIX) ? parseCitation(href.slice(FILE_LINK_PREFIX.length)) : undefined;
}
