import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The repository's root, found by walking up from the running file: tests are bundled into
 * `out/test/…` at depths that follow `src`'s folders, so a fixed `../../..` would break on a move.
 */
export const repoRoot = findRepoRoot(__dirname);

function findRepoRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'src', 'webview'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no repository root above ${start}`);
  }
}
