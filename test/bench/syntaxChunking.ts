/**
 * Cutting real code into chunks, by lines (chunkText) against along the syntax tree (SyntaxChunker),
 * over this repository's src/ and undici's lib/ in node_modules, in the same run:
 *   - speed: chunks and files per second, the best of a few rounds (the parser's loading apart);
 *   - what the cut keeps: of the functions, methods and classes of 5 lines or more that fit in 90% of
 *     a chunk, the share that one chunk holds whole, and the chunks' mean size.
 * `--rounds N` (default 5), `--max-chars N` (default 1500, the setting's default).
 */
import * as fs from 'node:fs';
import { repoRoot as root } from '../unit/support/repoRoot';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Language, Node } from '@vscode/tree-sitter-wasm';
import { chunkText, type Chunk } from '../../src/core/search/syntax/chunker';
import { grammarFile, grammarFor } from '../../src/core/search/syntax/grammars';
import { SyntaxChunker } from '../../src/core/search/syntax/syntaxChunker';
import { codeFiles } from './completionCorpus';
import { numberOption } from './options';

const FOLDER = path.dirname(require.resolve('@vscode/tree-sitter-wasm'));
const ROUNDS = numberOption('rounds', 5);
const MAX_CHARS = numberOption('max-chars', 1500);
/** Declarations whose wholeness is counted: of at least `MIN_LINES` lines (a one-line arrow function is whole in any cut). */
const MIN_LINES = 5;
const DECLARATION =
  /^(function_declaration|generator_function_declaration|method_definition|class_declaration|abstract_class_declaration|arrow_function|function_expression)$/;

interface SourceFile {
  path: string;
  text: string;
}

function corpus(folder: string): SourceFile[] {
  return codeFiles(folder, ['.ts', '.js', '.mjs']).map((file) => ({ path: file, text: fs.readFileSync(file, 'utf8') }));
}

/** Best time of `ROUNDS` runs of `cut` over the files, and the chunks of the last run. */
async function timed(files: SourceFile[], cut: (file: SourceFile) => Chunk[] | Promise<Chunk[]>): Promise<{ ms: number; chunks: Chunk[][] }> {
  let best = Infinity;
  let chunks: Chunk[][] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    const run: Chunk[][] = [];
    for (const file of files) run.push(await cut(file));
    best = Math.min(best, performance.now() - start);
    chunks = run;
  }
  return { ms: best, chunks };
}

/** The declarations of `node` that fit a chunk, as line ranges. */
function declarations(node: Node, lines: readonly string[], found: [number, number][] = []): [number, number][] {
  if (DECLARATION.test(node.type)) {
    const start = node.startPosition.row;
    const end = node.endPosition.row;
    if (end - start + 1 >= MIN_LINES && lines.slice(start, end + 1).join('\n').length <= MAX_CHARS * 0.9) found.push([start, end]);
  }
  for (const child of node.namedChildren) if (child) declarations(child, lines, found);
  return found;
}

/** Share of the declarations that some chunk holds whole. */
function keptWhole(ranges: [number, number][][], chunks: Chunk[][]): number {
  let total = 0;
  let whole = 0;
  ranges.forEach((fileRanges, i) => {
    for (const [start, end] of fileRanges) {
      total++;
      if (chunks[i].some((chunk) => chunk.startLine <= start && chunk.endLine >= end)) whole++;
    }
  });
  return total === 0 ? 1 : whole / total;
}

async function main(): Promise<void> {
  const loadStart = performance.now();
  const chunker = await SyntaxChunker.load(FOLDER);
  // Loading the grammars used, once, is the parser's start-up cost (what the first index pays).
  await chunker.chunk('const a = 1;\n', 'a.ts');
  await chunker.chunk('const a = 1;\n', 'a.js');
  const loadMs = performance.now() - loadStart;
  console.log(`parser and the TypeScript and JavaScript grammars loaded in ${loadMs.toFixed(0)} ms (once per window); maxChars ${MAX_CHARS}`);

  // A parser of its own to find the declarations each cut should keep whole.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the runtime as SyntaxChunker loads it
  const treeSitter = require(path.join(FOLDER, 'tree-sitter.js')) as typeof import('@vscode/tree-sitter-wasm');
  const languages = new Map<string, Language>();
  const parser = new treeSitter.Parser();

  for (const [name, folder] of [
    ['this repository, src/', path.join(root, 'src')],
    ['undici, lib/', path.join(path.dirname(require.resolve('undici/package.json')), 'lib')],
  ] as const) {
    const files = corpus(folder);
    const bytes = files.reduce((sum, file) => sum + Buffer.byteLength(file.text), 0);
    const ranges: [number, number][][] = [];
    for (const file of files) {
      const grammar = grammarFor(file.path)!;
      if (!languages.has(grammar)) languages.set(grammar, await treeSitter.Language.load(path.join(FOLDER, grammarFile(grammar))));
      parser.setLanguage(languages.get(grammar)!);
      const tree = parser.parse(file.text)!;
      ranges.push(declarations(tree.rootNode, file.text.split(/\r?\n/)));
      tree.delete();
    }
    console.log(
      `\n${name}: ${files.length} files, ${(bytes / 1024).toFixed(0)} KiB, ${ranges.flat().length} functions, methods and classes of ${MIN_LINES} lines or more that fit a chunk`,
    );
    const line = await timed(files, (file) => chunkText(file.text, { maxChars: MAX_CHARS }));
    const syntax = await timed(files, (file) => chunker.chunk(file.text, file.path, { maxChars: MAX_CHARS }));
    for (const [label, result] of [
      ['lines ', line],
      ['syntax', syntax],
    ] as const) {
      const all = result.chunks.flat();
      const meanChars = all.reduce((sum, chunk) => sum + chunk.text.length, 0) / all.length;
      const withContext = all.filter((chunk) => chunk.context !== undefined).length;
      console.log(
        `${label}: ${all.length} chunks in ${result.ms.toFixed(1)} ms = ${Math.round((all.length / result.ms) * 1000).toLocaleString('en')} chunks/s ` +
          `(${Math.round((files.length / result.ms) * 1000).toLocaleString('en')} files/s, ${(bytes / 1024 / 1024 / (result.ms / 1000)).toFixed(1)} MiB/s); ` +
          `mean ${meanChars.toFixed(0)} characters; ${(keptWhole(ranges, result.chunks) * 100).toFixed(1)}% of those declarations whole in one chunk` +
          (withContext > 0 ? `; ${withContext} with a repeated signature` : ''),
      );
    }
    const parseStart = performance.now();
    for (const file of files) {
      parser.setLanguage(languages.get(grammarFor(file.path)!)!);
      parser.parse(file.text)!.delete();
    }
    const parseMs = performance.now() - parseStart;
    console.log(`syntax / lines time: ${(syntax.ms / line.ms).toFixed(1)}×; parsing alone takes ${parseMs.toFixed(0)} ms of it (warm)`);
  }
  parser.delete();
  chunker.dispose();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
