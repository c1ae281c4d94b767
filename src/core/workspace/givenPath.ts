import * as path from 'node:path';

/**
 * Paths as a model gives them, taken apart without trusting them: a model may write a path
 * relative to the workspace, an absolute one in either operating system's style, `~/…` or a
 * `file:` URI, and a hostile one writes whatever reaches a secret. Nothing here touches a file
 * system; the host's own `path` flavour is never used, so a Windows path is read the same on any
 * machine (and in tests).
 */

/** What a given path says, before it is placed in a folder. */
export type GivenPath =
  /** Relative to the workspace: normalized, `/`-separated segments, none of them `..`; [] for the workspace itself. */
  | { kind: 'relative'; segments: string[] }
  /** A place on this machine's disk, in its own style (`/home/u/x`, `C:\x`, `\\server\share\x`). */
  | { kind: 'absolute'; diskPath: string }
  /** Cannot lie in the workspace: it climbs out with `..`, or names a home or scheme this cannot follow. */
  | { kind: 'outside'; why: string };

/**
 * Reads a path a model gave.
 * @param home the user's home directory, for `~`; undefined when it is not known
 */
export function parseGivenPath(given: string, home: string | undefined): GivenPath {
  const text = given.trim();
  if (/^file:/i.test(text)) return { kind: 'absolute', diskPath: fileUriPath(text) };
  // Two letters at least, so that a drive letter (`C:`) is not taken for a scheme.
  if (/^[a-z][a-z0-9+.-]+:\/\//i.test(text)) return { kind: 'outside', why: 'only file: URIs and paths are understood' };
  if (text === '~' || /^~[\\/]/.test(text)) {
    if (home === undefined) return { kind: 'outside', why: 'the home directory is not known here' };
    return { kind: 'absolute', diskPath: `${home}/${text.slice(1)}` };
  }
  if (text.startsWith('~')) return { kind: 'outside', why: "another user's home directory is never in the workspace" };
  if (styleOf(text) === 'win32' || text.startsWith('/')) return { kind: 'absolute', diskPath: text };
  const segments = relativeSegments(text);
  return segments ? { kind: 'relative', segments } : { kind: 'outside', why: 'it climbs out of the folder with ..' };
}

/**
 * A relative path's segments, with `.`, `./`, doubled separators and backslashes normalized and
 * `a/..` resolved; undefined when a `..` is left over, climbing above where the path starts.
 */
export function relativeSegments(text: string): string[] | undefined {
  const segments = withoutEmpty(path.posix.normalize(text.replace(/\\/g, '/')).split('/'));
  return segments.includes('..') ? undefined : segments;
}

/**
 * The segments of `absolute` below the folder at `diskPath` ([] for the folder itself), or
 * undefined when it lies elsewhere. `..` is resolved first, so climbing above the folder lands outside it.
 */
export function segmentsBelow(absolute: string, diskPath: string, caseInsensitive: boolean): string[] | undefined {
  const style = styleOf(diskPath);
  if (styleOf(absolute) !== style) return undefined;
  const given = absoluteSegments(absolute, style);
  const folder = absoluteSegments(diskPath, style);
  if (given.length < folder.length) return undefined;
  const inside = folder.every((segment, index) => sameName(segment, given[index], caseInsensitive));
  return inside ? withoutEmpty(given.slice(folder.length)) : undefined;
}

/**
 * Whether two names are the same file's: equal once both are in Unicode's composed form (macOS
 * stores names decomposed) and, when the file system ignores case, once case is folded both ways
 * (some letters only meet in upper case, as `ſ` and `s`, others only in lower case). Folding
 * too much only ever matches a name the folder really holds, which is then judged by its own name.
 */
export function sameName(a: string, b: string, caseInsensitive: boolean): boolean {
  if (a === b) return true;
  const [x, y] = [a.normalize('NFC'), b.normalize('NFC')];
  if (x === y) return true;
  return caseInsensitive && (x.toLowerCase() === y.toLowerCase() || x.toUpperCase() === y.toUpperCase());
}

/**
 * Why a file system could silently read `segment` as another name, or undefined when it cannot.
 * Windows drops a trailing dot or space (`.env.` is `.env`), reads `:` as a stream (`.env::$DATA`),
 * reserves device names and expands 8.3 short names (`GIT~1` may be `.git`): each would let a name
 * that no rule refuses reach a file that a rule does. They are refused on every system, since the
 * model cannot know which one the folder lives on.
 */
export function nameProblem(segment: string): string | undefined {
  if ([...segment].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) return 'it holds a control character';
  if (/[. ]$/.test(segment)) return 'it ends with a dot or a space, which Windows drops';
  if (segment.includes(':')) return 'it holds a colon, which Windows reads as a drive or a data stream';
  if (/[<>"|?*]/.test(segment)) return 'it holds one of < > " | ? *';
  if (/^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$) *(\.|$)/i.test(segment)) return 'it is a device name on Windows';
  if (/~\d+(\.|$)/.test(segment)) return 'it looks like a Windows short name (like PROGRA~1): give the long name';
  return undefined;
}

type Style = 'posix' | 'win32';

/** A drive (`C:\`, `C:/`) or a server's share (`\\server\share`, `//server/share`) marks a Windows path. */
function styleOf(text: string): Style {
  return /^[a-z]:[\\/]/i.test(text) || /^[\\/]{2}[^\\/]/.test(text) ? 'win32' : 'posix';
}

/** The segments of an absolute path, `.`, `..` and doubled separators resolved; a POSIX path's backslashes count as separators. */
function absoluteSegments(text: string, style: Style): string[] {
  if (style === 'win32') return withoutTrailing(path.win32.normalize(text).split('\\'));
  return withoutTrailing(path.posix.normalize(text.replace(/\\/g, '/')).split('/'));
}

/** `/a/b/` → ['', 'a', 'b'], `/` → [''], `C:\` → ['C:']: the root stays, a trailing separator goes. */
function withoutTrailing(segments: string[]): string[] {
  while (segments.length > 1 && segments[segments.length - 1] === '') segments.pop();
  return segments;
}

/** Normalization leaves `.` for nothing and empty segments at the ends. */
function withoutEmpty(segments: string[]): string[] {
  return segments.filter((segment) => segment !== '' && segment !== '.');
}

/**
 * The disk path a `file:` URI names: `file:///home/u/x` → `/home/u/x`, `file:///c%3A/x` → `c:/x`
 * (VS Code encodes the drive's colon), `file://server/share/x` → `//server/share/x`. A query or a
 * fragment (`#L10`) is dropped; percent escapes are decoded (a `%00` then meets nameProblem).
 */
function fileUriPath(uri: string): string {
  const rest = uri.replace(/^file:/i, '').replace(/[?#].*$/s, '');
  const [, authority = '', location = rest] = /^\/\/([^/]*)(.*)$/s.exec(rest) ?? [];
  const decoded = decodePercent(location);
  if (authority !== '' && authority.toLowerCase() !== 'localhost') return `//${decodePercent(authority)}${decoded}`;
  return /^\/[a-z]:([\\/]|$)/i.test(decoded) ? decoded.slice(1) : decoded;
}

/** Percent escapes decoded; a malformed one is kept as written (it then names no file of the workspace). */
function decodePercent(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
