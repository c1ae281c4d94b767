import * as path from 'node:path';
import { lineChunker, SyntaxChunker, type SourceChunker } from '../../core';
import type { Log } from '../log';

/** Where the build puts tree-sitter's runtime and grammars (esbuild.js): dist/tree-sitter, beside this bundle. */
const TREE_SITTER_FOLDER = path.join(__dirname, 'tree-sitter');

let loading: Promise<SourceChunker> | undefined;

/**
 * The chunker indexing uses: along the syntax tree where a grammar ships, by lines elsewhere. The
 * parser is loaded the first time an index is opened, not at activation, and once per window; if
 * it cannot load, files are cut by lines (search still works) and the log says why.
 */
export function sourceChunker(log: Log): Promise<SourceChunker> {
  loading ??= SyntaxChunker.load(TREE_SITTER_FOLDER, (problem) => log.warn(`Search index: ${problem}`)).catch((error: unknown) => {
    log.warn(`Search index: the syntax parser did not load, so files are cut by lines: ${(error as Error).message}`);
    return lineChunker;
  });
  return loading;
}
