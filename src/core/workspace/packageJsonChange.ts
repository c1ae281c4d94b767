import { isRecord } from '../base/isRecord';

/**
 * package.json fields that decide what npm (and the git-hook tools configured there) runs: scripts,
 * including the install-time ones; commands put on the PATH (`bin`); values scripts read (`config`);
 * which packages' scripts run (`workspaces`); the package manager corepack downloads and runs
 * (`packageManager`); node-gyp builds on install (`gypfile`).
 */
const COMMAND_FIELDS = ['scripts', 'bin', 'config', 'workspaces', 'packageManager', 'gypfile', 'husky', 'lint-staged', 'pre-commit', 'simple-git-hooks'];

/** package.json fields that choose packages: a new or different package runs its own install scripts on the next install. */
const DEPENDENCY_FIELDS = [
  'dependencies',
  'devDependencies',
  'optionalDependencies',
  'peerDependencies',
  'bundleDependencies',
  'bundledDependencies',
  'overrides',
  'resolutions',
  'pnpm',
];

/** Scripts npm runs on `npm install` without being asked. */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare', 'preprepare', 'postprepare', 'prepublish'];

/**
 * Whether a change to a package.json can run code: only when it touches what npm (or a git-hook
 * tool configured there) runs, or which packages are installed (each runs its own install
 * scripts): why, naming the fields and any script npm runs on install; undefined when it touches
 * neither. A side that is not JSON cannot be judged, and counts as such a change.
 */
export function packageJsonChange(before: string | undefined, after: string): string | undefined {
  const old = before === undefined ? {} : parseObject(before);
  const next = parseObject(after);
  if (old === undefined || next === undefined) {
    return 'This package.json could not be read as JSON, so whether the change touches its scripts (which npm runs as commands) cannot be told.';
  }
  const changed = (field: string) => !sameJson(old[field], next[field]);
  const commands = COMMAND_FIELDS.filter(changed);
  const dependencies = DEPENDENCY_FIELDS.filter(changed);
  if (commands.length === 0 && dependencies.length === 0) return undefined;
  const oldScripts = asObject(old.scripts) ?? {};
  const newScripts = asObject(next.scripts) ?? {};
  const installScripts = INSTALL_SCRIPTS.filter((script) => !sameJson(oldScripts[script], newScripts[script]));
  const why: string[] = [];
  if (installScripts.length > 0) why.push(`npm runs ${quoteList(installScripts)} on every npm install, without being asked`);
  else if (commands.length > 0) why.push('these decide which commands npm and git hooks run');
  if (dependencies.length > 0) why.push('a new or different package runs its own install scripts on the next npm install');
  return `This change touches ${quoteList([...commands, ...dependencies])} in package.json: ${why.join('; ')}.`;
}

/** The JSON object a text holds (a byte order mark aside), or undefined when it holds something else or is not JSON. */
function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    return asObject(JSON.parse(text.replace(/^\uFEFF/, '')));
  } catch {
    return undefined;
  }
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return isRecord(value) ? value : undefined;
}

/** Equal JSON values; objects compare regardless of key order, so reordering scripts is not a change. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, index) => sameJson(item, b[index]));
  }
  const objectA = asObject(a);
  const objectB = asObject(b);
  if (!objectA || !objectB) return false;
  const keys = Object.keys(objectA);
  return keys.length === Object.keys(objectB).length && keys.every((key) => Object.hasOwn(objectB, key) && sameJson(objectA[key], objectB[key]));
}

/** `"a"`, `"a" and "b"`, `"a", "b" and "c"`. */
function quoteList(items: readonly string[]): string {
  const quoted = items.map((item) => `"${item}"`);
  return quoted.length <= 1 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
}
