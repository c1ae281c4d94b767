/** A setting that decides the excludes file: `core.excludesFile`, or `include.path` (read there, in place). */
export interface ExcludesEntry {
  key: 'excludesFile' | 'include';
  value: string;
}

/**
 * The `core.excludesFile` and `include.path` settings of one git configuration file's text, in
 * order (the last excludes file set wins, as in git, including one set in an included file). Only
 * what these settings need of git's syntax is read: sections (names in any case; `[core "sub"]` and
 * `[includeIf …]` are not these sections), `name = value` lines, comments after `#` or `;`, double
 * quotes, backslash escapes and line continuations.
 */
export function readExcludesEntries(config: string): ExcludesEntry[] {
  const entries: ExcludesEntry[] = [];
  let section = '';
  for (const line of logicalLines(config)) {
    let rest = line.trimStart();
    const header = /^\[([^\]]*)\]/.exec(rest);
    if (header) {
      section = header[1].trim().toLowerCase();
      rest = rest.slice(header[0].length).trimStart();
    }
    const variable = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?$/s.exec(rest);
    if (!variable || variable[2] === undefined) continue;
    const name = `${section}.${variable[1].toLowerCase()}`;
    if (name === 'core.excludesfile') entries.push({ key: 'excludesFile', value: parseValue(variable[2]) });
    else if (name === 'include.path') entries.push({ key: 'include', value: parseValue(variable[2]) });
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
