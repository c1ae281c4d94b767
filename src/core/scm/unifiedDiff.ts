/**
 * Reading git's unified diff (`git diff`, as VS Code's git API returns it) into files and hunks,
 * so that each file can be judged on its own (a secret or ignored file is named but its content
 * left out), summarised within a budget, and a finding placed on the line it is about.
 */

export type DiffStatus = 'added' | 'deleted' | 'modified' | 'renamed';

export interface DiffHunk {
  /** The hunk's header line, `@@ -a,b +c,d @@ context`. */
  header: string;
  /** First line of the hunk in the old file, 1-based (0 for an added file). */
  oldStart: number;
  oldLines: number;
  /** First line of the hunk in the new file, 1-based (0 for a deleted file). */
  newStart: number;
  newLines: number;
  /** The hunk's lines, each with its ' ', '+' or '-' prefix; "\ No newline at end of file" dropped. */
  lines: string[];
}

export interface DiffFile {
  /** The file's path relative to the repository root, after the change (before it, for a deletion). */
  path: string;
  /** The path before a rename. */
  oldPath?: string;
  status: DiffStatus;
  /** Git said "Binary files differ": there are no hunks to read. */
  binary: boolean;
  hunks: DiffHunk[];
  added: number;
  removed: number;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** `a/src/x.ts` → `src/x.ts`; git quotes paths with unusual characters ("a/\303\251.ts"). */
function diffPath(raw: string): string {
  let text = raw.trim();
  if (text.startsWith('"') && text.endsWith('"')) text = unquote(text.slice(1, -1));
  return text.replace(/^[ab]\//, '');
}

/** Git's C-style quoting, octal escapes as UTF-8 bytes. */
function unquote(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch !== '\\') {
      bytes.push(...Buffer.from(ch, 'utf8'));
      continue;
    }
    const next = text[++i];
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(text.slice(i, i + 3), 8));
      i += 2;
    } else bytes.push(({ n: 10, t: 9, '"': 34, '\\': 92 } as Record<string, number>)[next] ?? next.charCodeAt(0));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The paths on a `diff --git a/x b/y` line, when they can be told apart (no quotes, no " b/" inside). */
function gitLinePaths(line: string): { from: string; to: string } | undefined {
  const rest = line.slice('diff --git '.length);
  const split = rest.indexOf(' b/');
  if (!rest.startsWith('a/') || split < 0 || rest.indexOf(' b/', split + 1) >= 0) return undefined;
  return { from: rest.slice(2, split), to: rest.slice(split + 3) };
}

function newFile(line: string): DiffFile {
  const paths = gitLinePaths(line);
  return { path: paths?.to ?? '', oldPath: paths?.from, status: 'modified', binary: false, hunks: [], added: 0, removed: 0 };
}

/** The files of a unified diff, in order. Text that is not a diff gives no files. */
export function parseUnifiedDiff(text: string): DiffFile[] {
  const files: DiffFile[] = [];
  let file: DiffFile | undefined;
  let hunk: DiffHunk | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith('diff --git ')) {
      file = newFile(line);
      files.push(file);
      hunk = undefined;
      continue;
    }
    if (!file) continue;
    const header = HUNK_HEADER.exec(line);
    if (header) {
      hunk = {
        header: line,
        oldStart: Number(header[1]),
        oldLines: header[2] === undefined ? 1 : Number(header[2]),
        newStart: Number(header[3]),
        newLines: header[4] === undefined ? 1 : Number(header[4]),
        lines: [],
      };
      file.hunks.push(hunk);
      continue;
    }
    if (hunk) {
      if (line.startsWith('+')) file.added++;
      else if (line.startsWith('-')) file.removed++;
      else if (!line.startsWith(' ')) {
        if (!line.startsWith('\\')) hunk = undefined;
        continue;
      }
      hunk.lines.push(line);
      continue;
    }
    if (line.startsWith('new file mode')) file.status = 'added';
    else if (line.startsWith('deleted file mode')) file.status = 'deleted';
    else if (line.startsWith('rename from ')) {
      file.status = 'renamed';
      file.oldPath = diffPath(line.slice('rename from '.length));
    } else if (line.startsWith('rename to ')) file.path = diffPath(line.slice('rename to '.length));
    else if (line.startsWith('Binary files ')) file.binary = true;
    else if (line.startsWith('--- ') && !line.startsWith('--- /dev/null')) file.oldPath = diffPath(line.slice(4));
    else if (line.startsWith('+++ ') && !line.startsWith('+++ /dev/null')) file.path = diffPath(line.slice(4));
    else if (line.startsWith('+++ /dev/null') && file.oldPath) file.path = file.oldPath;
  }
  for (const each of files) if (each.status !== 'renamed' || each.oldPath === each.path) delete each.oldPath;
  return files;
}

/** The new file's line numbers (1-based) that a hunk adds, in order. */
export function addedLines(hunk: DiffHunk): number[] {
  const result: number[] = [];
  let line = hunk.newStart;
  for (const text of hunk.lines) {
    if (text.startsWith('+')) result.push(line++);
    else if (text.startsWith(' ')) line++;
  }
  return result;
}
