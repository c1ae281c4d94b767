/**
 * The value of `core.excludesFile` in one git configuration file's text (the last one set wins, as
 * in git), or undefined when the file does not set it. Only what this setting needs of git's syntax
 * is read: sections (names in any case, `[core]` only, not `[core "sub"]`), `name = value` lines,
 * comments after `#` or `;`, double quotes, backslash escapes and line continuations. Included files
 * (`[include]`) are not followed: a setting there is missed, and the default excludes file applies.
 */
export function readExcludesFileSetting(config: string): string | undefined {
  let found: string | undefined;
  let inCore = false;
  for (const line of logicalLines(config)) {
    let rest = line.trimStart();
    const header = /^\[([^\]]*)\]/.exec(rest);
    if (header) {
      inCore = header[1].trim().toLowerCase() === 'core';
      rest = rest.slice(header[0].length).trimStart();
    }
    const variable = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?$/s.exec(rest);
    if (inCore && variable && variable[1].toLowerCase() === 'excludesfile' && variable[2] !== undefined) found = parseValue(variable[2]);
  }
  return found;
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
