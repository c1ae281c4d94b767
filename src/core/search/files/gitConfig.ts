/**
 * A setting that decides the excludes file: `core.excludesFile`, or `include.path` (read there, in
 * place), or `includeIf.<condition>.path` (read there when the condition holds).
 */
export interface ExcludesEntry {
  key: 'excludesFile' | 'include';
  value: string;
  /** For `[includeIf "gitdir:~/work/"]`: the condition, as written (`gitdir:~/work/`). */
  condition?: string;
}

/** Section header: the name (any case) and a quoted subsection (case kept, `\"` and `\\` unescaped). */
const HEADER = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/;

/**
 * The `core.excludesFile`, `include.path` and `includeIf.….path` settings of one git configuration
 * file's text, in order (the last excludes file set wins, as in git, including one set in an
 * included file). Only what these settings need of git's syntax is read: sections (names in any
 * case; `[core "sub"]` is not `[core]`), `name = value` lines, comments after `#` or `;`, double
 * quotes, backslash escapes and line continuations.
 */
export function readExcludesEntries(config: string): ExcludesEntry[] {
  const entries: ExcludesEntry[] = [];
  let section = '';
  let subsection: string | undefined;
  for (const line of logicalLines(config)) {
    let rest = line.trimStart();
    if (rest.startsWith('[')) {
      const header = HEADER.exec(rest);
      // A header git would refuse: nothing under it is taken.
      section = header ? header[1].toLowerCase() : '';
      subsection = header?.[2]?.replace(/\\(.)/g, '$1');
      rest = header ? rest.slice(header[0].length).trimStart() : '';
    }
    const variable = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?$/s.exec(rest);
    if (!variable || variable[2] === undefined) continue;
    const name = variable[1].toLowerCase();
    if (section === 'core' && subsection === undefined && name === 'excludesfile') entries.push({ key: 'excludesFile', value: parseValue(variable[2]) });
    else if (section === 'include' && subsection === undefined && name === 'path') entries.push({ key: 'include', value: parseValue(variable[2]) });
    else if (section === 'includeif' && subsection !== undefined && name === 'path')
      entries.push({ key: 'include', value: parseValue(variable[2]), condition: subsection });
  }
  return entries;
}

/** Lines joined where a backslash ends one outside quotes (git's continuation). */
function logicalLines(config: string): string[] {
  const lines: string[] = [];
  let pending = '';
  for (const line of config.split(/\r?\n/)) {
    if (/(^|[^\\])(\\\\)*\\$/.test(line)) pending += line.slice(0, -1);
    else {
      lines.push(pending + line);
      pending = '';
    }
  }
  if (pending) lines.push(pending);
  return lines;
}

const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', b: '\b' };

/** A value as git reads it: unquoted, unescaped, a comment cut, outer whitespace trimmed. */
function parseValue(raw: string): string {
  let value = '';
  let quoted = false;
  // Whitespace outside quotes is kept only between words: held back until something follows it.
  let space = '';
  const append = (text: string) => {
    value += (value ? space : '') + text;
    space = '';
  };
  for (let i = 0; i < raw.length; i++) {
    const char = raw[i];
    if (char === '"') {
      if (value) append('');
      quoted = !quoted;
    } else if (char === '\\' && i + 1 < raw.length) append(ESCAPES[raw[++i]] ?? raw[i]);
    else if (!quoted && (char === '#' || char === ';')) break;
    else if (!quoted && /\s/.test(char)) space += char;
    else append(char);
  }
  return value;
}
