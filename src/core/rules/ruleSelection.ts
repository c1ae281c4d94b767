/**
 * Which of a project's rule files apply to the files a request is about, the way VS Code's own
 * agent picks them, plus GigaChat's own: `AGENTS.md` at the folder's root and the nearest one
 * above each file in question, `.github/copilot-instructions.md`, `.github/instructions/*.instructions.md`
 * whose front matter's `applyTo` globs match one of the files, `GIGACODE.md`, and
 * `.gigachat/rules/*.md` (every one, or by its own `applyTo`). Paths are relative to one
 * workspace folder, `/`-separated. Pure: the host reads the files (workspace port, trust) and
 * gives them here.
 */

export type RuleKind = 'gigachatRule' | 'gigacode' | 'instructions' | 'nearestAgents' | 'rootAgents' | 'copilot';

/** A rule file as read from the folder. */
export interface RuleFile {
  path: string;
  text: string;
}

/** A rule file that applies, its front matter taken off. */
export interface ProjectRule {
  path: string;
  kind: RuleKind;
  /** What the model is told: the file's text without its front matter. */
  body: string;
}

export const AGENTS_FILE = 'AGENTS.md';
export const COPILOT_INSTRUCTIONS = '.github/copilot-instructions.md';
export const GIGACODE_FILE = 'GIGACODE.md';
/** The folders whose files are rules, and which of their names count. */
export const RULE_FOLDERS: readonly { folder: string; isRule: (name: string) => boolean }[] = [
  { folder: '.github/instructions', isRule: (name) => name.endsWith('.instructions.md') },
  { folder: '.gigachat/rules', isRule: (name) => name.endsWith('.md') },
];

/**
 * The most important first: when the room runs out, rules give way from the end. What GigaChat's
 * own files say beats what is written for any agent, and a rule for the file at hand beats one for the whole project.
 */
const IMPORTANCE: readonly RuleKind[] = ['gigachatRule', 'gigacode', 'instructions', 'nearestAgents', 'rootAgents', 'copilot'];

/** The fixed paths to try for `targets` (files relative to the folder): the root's files and each AGENTS.md on the way to a target. */
export function fixedRulePaths(targets: readonly string[]): string[] {
  const paths = new Set([AGENTS_FILE, COPILOT_INSTRUCTIONS, GIGACODE_FILE]);
  for (const target of targets) {
    const parts = target.split('/').slice(0, -1);
    for (let depth = 1; depth <= parts.length; depth++) paths.add(`${parts.slice(0, depth).join('/')}/${AGENTS_FILE}`);
  }
  return [...paths];
}

/** The rules among `files` that apply to `targets` (none: a request about no file in particular), most important first. */
export function selectRules(files: readonly RuleFile[], targets: readonly string[]): ProjectRule[] {
  const present = new Set(files.map((file) => file.path));
  const nearest = new Set(targets.map((target) => nearestAgents(target, present)).filter((path): path is string => path !== undefined));
  const selected: ProjectRule[] = [];
  for (const file of files) {
    const kind = kindOf(file.path);
    if (!kind) continue;
    const { applyTo, body } = frontMatter(file.text);
    if (body.trim() === '') continue;
    const applies =
      kind === 'nearestAgents'
        ? nearest.has(file.path)
        : kind === 'instructions' || (kind === 'gigachatRule' && applyTo !== undefined)
          ? targets.some((target) => matchesAny(applyTo ?? [], target))
          : true;
    if (applies) selected.push({ path: file.path, kind, body: body.trim() });
  }
  return selected.sort((a, b) => IMPORTANCE.indexOf(a.kind) - IMPORTANCE.indexOf(b.kind) || a.path.localeCompare(b.path));
}

function kindOf(path: string): RuleKind | undefined {
  if (path === AGENTS_FILE) return 'rootAgents';
  if (path.endsWith(`/${AGENTS_FILE}`)) return 'nearestAgents';
  if (path === COPILOT_INSTRUCTIONS) return 'copilot';
  if (path === GIGACODE_FILE) return 'gigacode';
  const slash = path.lastIndexOf('/');
  const rule = RULE_FOLDERS.find(({ folder, isRule }) => path.slice(0, slash) === folder && isRule(path.slice(slash + 1)));
  if (!rule) return undefined;
  return rule.folder === '.github/instructions' ? 'instructions' : 'gigachatRule';
}

/** The AGENTS.md of the deepest folder above `target` that has one, below the root (the root's is always taken). */
function nearestAgents(target: string, present: ReadonlySet<string>): string | undefined {
  const parts = target.split('/').slice(0, -1);
  for (let depth = parts.length; depth >= 1; depth--) {
    const path = `${parts.slice(0, depth).join('/')}/${AGENTS_FILE}`;
    if (present.has(path)) return path;
  }
  return undefined;
}

/**
 * The front matter's `applyTo` (comma-separated globs, quoted or not) and the text after it. A
 * file without front matter has no `applyTo`.
 */
export function frontMatter(text: string): { applyTo?: string[]; body: string } {
  const match = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match) return { body: text };
  const body = text.slice(match[0].length);
  const line = match[1].split(/\r?\n/).find((entry) => /^applyTo\s*:/.test(entry));
  if (line === undefined) return { body };
  const value = line
    .replace(/^applyTo\s*:\s*/, '')
    .trim()
    .replace(/^(['"])(.*)\1$/, '$2');
  const applyTo = splitGlobs(value)
    .map((glob) => glob.trim())
    .filter(Boolean);
  return { applyTo, body };
}

/** Commas split globs, except inside braces (`**\/*.{ts,tsx}` is one). */
function splitGlobs(value: string): string[] {
  const globs: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of value) {
    if (char === '{') depth++;
    if (char === '}') depth = Math.max(0, depth - 1);
    if (char === ',' && depth === 0) {
      globs.push(current);
      current = '';
    } else current += char;
  }
  return [...globs, current];
}

function matchesAny(globs: readonly string[], path: string): boolean {
  return globs.some((glob) => globPattern(glob).test(path));
}

/**
 * A glob as VS Code's `applyTo` reads it, relative to the folder: `**` any number of folders, `*`
 * and `?` within a name, `{a,b}` either. A glob with no `/` matches the name at any depth (`*.ts`).
 */
export function globPattern(glob: string): RegExp {
  const plain = glob.replace(/^\.\//, '').replace(/^\//, '');
  const anywhere = !plain.includes('/') && !plain.startsWith('**');
  let source = '';
  for (let index = 0; index < plain.length; index++) {
    const char = plain[index];
    if (char === '*' && plain[index + 1] === '*') {
      const slash = plain[index + 2] === '/';
      source += slash ? '(?:[^/]*/)*' : '.*';
      index += slash ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else if (char === '{') source += '(?:';
    else if (char === '}') source += ')';
    else if (char === ',') source += '|';
    else source += char.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${anywhere ? '(?:[^/]*/)*' : ''}${source}$`);
}
