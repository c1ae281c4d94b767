/**
 * A workspace like a user's for the memory figures of semantic search (test/bench/searchMemory.ts
 * and the benchmark suite in the real extension host): real source files, the TypeScript and
 * JavaScript of the project's own dependencies in node_modules (the other languages search parses
 * have no sources there), chosen the same way on every run: the packages in name order, files of
 * 1 to 256 KiB (the parser's limit), no minified or bundled builds, at most PER_PACKAGE files of
 * a package (so that no one vendor's style makes the figure), at most `maxFiles` in all.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const SOURCE = /\.(?:ts|tsx|mts|cts|js|mjs|cjs|jsx)$/;
/** Folders of builds, not sources: one long line, or many copies of the same code. */
const BUILD_FOLDER = /^(?:dist|umd|min|bundle|browser|esm|cjs|build|out|\.bin)$/;
const MIN_BYTES = 1024;
const MAX_BYTES = 256 * 1024;
const PER_PACKAGE = 40;

export interface RealSource {
  /** Relative to node_modules, with `/`. */
  relative: string;
  absolute: string;
}

/** Up to `maxFiles` real source files from `nodeModules` (see the module comment). */
export function realSources(nodeModules: string, maxFiles: number): RealSource[] {
  const found: RealSource[] = [];
  const perPackage = new Map<string, number>();
  const packageOf = (relative: string) => relative.split('/', relative.startsWith('@') ? 2 : 1).join('/');
  const walk = (folder: string, relative: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (found.length >= maxFiles || (perPackage.get(packageOf(relative)) ?? 0) >= PER_PACKAGE) return;
      const name = relative ? `${relative}/${entry.name}` : entry.name;
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!BUILD_FOLDER.test(entry.name) && entry.name !== 'typescript') walk(full, name);
      } else if (entry.isFile() && SOURCE.test(entry.name) && !/[.-]min\.|\.bundle\./.test(entry.name)) {
        const size = fs.statSync(full).size;
        if (size < MIN_BYTES || size > MAX_BYTES) continue;
        found.push({ relative: name, absolute: full });
        perPackage.set(packageOf(name), (perPackage.get(packageOf(name)) ?? 0) + 1);
      }
    }
  };
  walk(nodeModules, '');
  return found;
}
