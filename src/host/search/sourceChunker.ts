import * as path from 'node:path';
import { WorkerChunker, type SourceChunker } from '../../core';
import type { Log } from '../log';

/** Where the build puts tree-sitter's runtime and grammars (esbuild.js): dist/tree-sitter, beside this bundle. */
const TREE_SITTER_FOLDER = path.join(__dirname, 'tree-sitter');
/** The parsing thread's bundle (esbuild.js), beside this one. */
const WORKER_FILE = path.join(__dirname, 'chunkWorker.js');

/**
 * The name boundaries recorded by this chunker are saved under (ChunkBoundaries): a change to how
 * files are cut (the grammars, treeChunker.ts, chunker.ts) must change it, or files whose text is
 * unchanged keep their old cut.
 */
export const SOURCE_CHUNKER_NAME = 'syntax-2';

let chunker: SourceChunker | undefined;

/**
 * The chunker indexing uses: along the syntax tree where a grammar ships, by lines elsewhere, in a
 * thread of its own that ends when idle (WorkerChunker), one per window. If the parser cannot load,
 * files are cut by lines (search still works) and the log says why.
 */
export function sourceChunker(log: Log): SourceChunker {
  chunker ??= new WorkerChunker(WORKER_FILE, TREE_SITTER_FOLDER, (problem) => log.warn(`Search index: ${problem}`));
  return chunker;
}
