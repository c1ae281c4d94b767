import * as fs from 'node:fs';
import { repoRoot } from './repoRoot';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * A temporary folder with the parser and grammars as the build writes them to dist/tree-sitter
 * (esbuild.js), unminified; the caller removes it.
 */
export function writeParserFolder(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tree-sitter-'));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const build = require(path.resolve(repoRoot, 'esbuild.js')) as { writeTreeSitter: (folder: string, minify: boolean) => void };
  build.writeTreeSitter(folder, false);
  return folder;
}
