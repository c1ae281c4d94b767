import * as path from 'node:path';
import type { Language, Parser } from '@vscode/tree-sitter-wasm';
import { chunkText, DEFAULT_MAX_CHARS, type Chunk, type ChunkOptions } from './chunker';
import { grammarFile, grammarFor } from './grammars';
import { chunkTree } from './treeChunker';
import { messageOf } from '../../base/errorMessage';

/** Cuts a file's text into chunks; `languageIdOrPath` says what the text is (a VS Code language id, or the file's path or URI). */
export interface SourceChunker {
  chunk(text: string, languageIdOrPath: string, options?: ChunkOptions): Promise<Chunk[]>;
}

/** Cuts every file by lines (`chunkText`): what indexing does without a parser. */
export const lineChunker: SourceChunker = {
  chunk: (text, _languageIdOrPath, options) => Promise.resolve(chunkText(text, options)),
};

/**
 * `chunker`, except that a file it fails to cut (a parser fault, a thread that answered with an
 * error) is cut by lines and `onFailed` is told which and why: one file's problem never stops
 * indexing the others, and search still finds that file.
 */
export function withLineFallback(chunker: SourceChunker, onFailed: (languageIdOrPath: string, error: unknown) => void): SourceChunker {
  return {
    chunk: async (text, languageIdOrPath, options) => {
      try {
        return await chunker.chunk(text, languageIdOrPath, options);
      } catch (error) {
        onFailed(languageIdOrPath, error);
        return chunkText(text, options);
      }
    },
  };
}

/**
 * Longer texts are cut by lines: tree-sitter's wasm reads code at about 1.5 MiB/s, and parsing holds
 * the extension host's event loop (about 170 ms at this size); files this big are mostly generated.
 */
export const MAX_PARSED_CHARS = 256 * 1024;

/**
 * A syntax cut into more chunks than this many times the file's length in chunks is cut by lines
 * instead: blocks nested thousands deep with a statement on each level's line make a chunk of
 * nearly every line, each under the repeated signatures (5,000 texts to embed for 50 KB). Ordinary
 * code stays under 2.3 times (this repository's sources and its dependencies', at 200 to 1,500
 * characters a chunk).
 */
const MAX_CHUNKS_PER_SIZE = 4;

/** The module `tree-sitter.js` of @vscode/tree-sitter-wasm: web-tree-sitter's runtime. */
type TreeSitterModule = typeof import('@vscode/tree-sitter-wasm');

/**
 * Chunks along the syntax tree (`chunkTree`) for the languages whose tree-sitter grammar ships,
 * by lines for any other text, for a file with a syntax error (its tree would cut in odd places),
 * for one whose cut would make far more chunks than its size calls for (MAX_CHUNKS_PER_SIZE),
 * for one over MAX_PARSED_CHARS and for a grammar that fails to load (said once through `onProblem`).
 *
 * The parser is tree-sitter's WebAssembly build as VS Code itself ships it (@vscode/tree-sitter-wasm):
 * plain Node, no native module to build per platform, and grammars maintained for the editor.
 * `load` reads the runtime from `folder` (tree-sitter.js and tree-sitter.wasm); each grammar's wasm
 * is read from the same folder the first time a file of its language comes.
 */
export class SyntaxChunker implements SourceChunker {
  private readonly languages = new Map<string, Promise<Language | undefined>>();
  private readonly parser: Parser;

  private constructor(
    private readonly treeSitter: TreeSitterModule,
    private readonly folder: string,
    private readonly onProblem: (message: string) => void,
  ) {
    this.parser = new treeSitter.Parser();
  }

  /** Loads the runtime from `folder`; rejects when it cannot (the caller then cuts by lines). */
  static async load(folder: string, onProblem: (message: string) => void = () => undefined): Promise<SyntaxChunker> {
    // Required from the folder at run time rather than bundled: the runtime finds its wasm beside
    // itself, and it stays out of the bundles loaded at activation.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded from the folder when an index opens
    const treeSitter = require(path.join(folder, 'tree-sitter.js')) as TreeSitterModule;
    await treeSitter.Parser.init();
    return new SyntaxChunker(treeSitter, folder, onProblem);
  }

  async chunk(text: string, languageIdOrPath: string, options: ChunkOptions = {}): Promise<Chunk[]> {
    const grammar = grammarFor(languageIdOrPath);
    const language = grammar === undefined ? undefined : await this.language(grammar);
    return language ? this.chunkWith(language, text, options) : chunkText(text, options);
  }

  /** Frees the parser's WebAssembly memory; chunking after this is an error. */
  dispose(): void {
    this.parser.delete();
  }

  private language(grammar: string): Promise<Language | undefined> {
    let loading = this.languages.get(grammar);
    if (!loading) {
      loading = this.treeSitter.Language.load(path.join(this.folder, grammarFile(grammar))).catch((error: unknown) => {
        this.onProblem(`the ${grammar} grammar did not load, so its files are cut by lines: ${messageOf(error)}`);
        return undefined;
      });
      this.languages.set(grammar, loading);
    }
    return loading;
  }

  private chunkWith(language: Language, text: string, options: ChunkOptions): Chunk[] {
    // tree-sitter counts only '\n' as a line break; a lone CR would shift its rows against the lines.
    if (text.length > MAX_PARSED_CHARS || !/\S/.test(text) || /\r(?!\n)/.test(text)) return chunkText(text, options);
    this.parser.setLanguage(language);
    const tree = this.parser.parse(text);
    try {
      if (!tree || tree.rootNode.hasError) return chunkText(text, options);
      const chunks = chunkTree(tree.rootNode, text.split(/\r?\n/), options);
      const sized = Math.ceil(text.length / (options.maxChars ?? DEFAULT_MAX_CHARS));
      return chunks.length > MAX_CHUNKS_PER_SIZE * sized + 8 ? chunkText(text, options) : chunks;
    } finally {
      tree?.delete();
    }
  }
}
