import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import plaintext from 'highlight.js/lib/languages/plaintext';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

/**
 * Syntax highlighting with highlight.js's core and a fixed set of common languages (the full
 * bundle with ~190 languages would triple the webview's size). No auto-detection: it is slow and
 * guesses wrong on short snippets, and the model almost always labels its fences.
 */

const languages = {
  bash,
  c,
  cpp,
  csharp,
  css,
  diff,
  go,
  java,
  javascript,
  json,
  kotlin,
  markdown,
  php,
  plaintext,
  python,
  ruby,
  rust,
  shell,
  sql,
  swift,
  typescript,
  xml,
  yaml,
};
for (const [name, language] of Object.entries(languages)) hljs.registerLanguage(name, language);
// Names models use that highlight.js knows under another name.
hljs.registerAliases(['console', 'terminal'], { languageName: 'shell' });
hljs.registerAliases(['html', 'vue', 'svelte', 'xhtml', 'svg'], { languageName: 'xml' });
hljs.registerAliases(['jsonc', 'json5'], { languageName: 'json' });
hljs.registerAliases(['text', 'txt'], { languageName: 'plaintext' });

/** Beyond this a block is shown plain: highlighting is superlinear on some grammars. */
const MAX_HIGHLIGHT_CHARS = 100_000;

/** The highlighted HTML (escaped text in `<span class="hljs-…">`), or undefined to show it plain. */
export function highlightCode(code: string, language: string): string | undefined {
  if (!language || code.length > MAX_HIGHLIGHT_CHARS || !hljs.getLanguage(language)) return undefined;
  try {
    return hljs.highlight(code, { language, ignoreIllegals: true }).value;
  } catch {
    return undefined;
  }
}

/**
 * How people write a fence's language (`ts` → `TypeScript`), for the names of its code block's
 * buttons; the fence's own word for one highlight.js does not know or names by a list (`HTML, XML`).
 * Undefined for plain text.
 */
export function languageName(language: string): string | undefined {
  const known = hljs.getLanguage(language);
  if (!language || known === hljs.getLanguage('plaintext')) return undefined;
  return known?.name && !known.name.includes(',') ? known.name : language;
}
