/**
 * Which tree-sitter grammar reads a file: by VS Code language id or by the file's extension (a path
 * or URI). Only languages whose grammar ships with the extension are named; anything else is cut
 * by lines. C is read with the C++ grammar (C's syntax is, for the declarations that chunking
 * looks at, a subset of it), which saves shipping a second 600 KB grammar.
 */

const BY_LANGUAGE_ID: Readonly<Record<string, string>> = {
  typescript: 'typescript',
  typescriptreact: 'tsx',
  javascript: 'javascript',
  javascriptreact: 'javascript',
  python: 'python',
  java: 'java',
  go: 'go',
  c: 'cpp',
  cpp: 'cpp',
  csharp: 'c-sharp',
  rust: 'rust',
  php: 'php',
  ruby: 'ruby',
  kotlin: 'kotlin',
};

const BY_EXTENSION: Readonly<Record<string, string>> = {
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  py: 'python',
  pyi: 'python',
  java: 'java',
  go: 'go',
  c: 'cpp',
  h: 'cpp',
  cc: 'cpp',
  cpp: 'cpp',
  cxx: 'cpp',
  hh: 'cpp',
  hpp: 'cpp',
  hxx: 'cpp',
  cs: 'c-sharp',
  rs: 'rust',
  php: 'php',
  rb: 'ruby',
  kt: 'kotlin',
  kts: 'kotlin',
};

/** Every grammar some language maps to: the wasm files the build ships (`tree-sitter-NAME.wasm`). */
export const GRAMMARS: readonly string[] = [...new Set(Object.values(BY_EXTENSION))].sort();

/** The grammar for a language id or a file's path (or URI), or undefined when none ships. */
export function grammarFor(languageIdOrPath: string): string | undefined {
  const byId = BY_LANGUAGE_ID[languageIdOrPath];
  if (byId !== undefined) return byId;
  // The last segment's extension; a query or fragment of a URI is not part of it.
  const name = languageIdOrPath.replace(/[?#].*$/, '').replace(/^.*[/\\]/, '');
  // `.d.ts` files are TypeScript too; a name without a dot (Makefile) or starting with one (.eslintrc) has no extension.
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return undefined;
  return BY_EXTENSION[name.slice(dot + 1).toLowerCase()];
}

/** The wasm file of a grammar, as the package and the build name it. */
export function grammarFile(grammar: string): string {
  return `tree-sitter-${grammar}.wasm`;
}
