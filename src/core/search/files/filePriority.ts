/**
 * Which files semantic search keeps when a workspace has more candidates than
 * `gigachat.search.maxFiles`: the project's own code first, then its tests, then code it carries
 * from elsewhere; within each, files nearer the folder's root first, then in path order.
 *
 * Why this order: a search is asked to find the project's code. Tests restate the code they check
 * (their hits crowd out the code itself), and vendored code is someone else's. Files deep in the
 * tree are more often examples, fixtures and generated code than the core of the project. Why not
 * the most recently modified first: that takes a stat of every file (seconds for 50,000 files over
 * VS Code's file system, before the consent question can even count them), and the chosen set would
 * change as you work, files leaving and entering the index (and costing requests) with every edit;
 * this order depends on the paths alone, so it is free and the same from one scan to the next.
 */

export type FileKind = 'source' | 'test' | 'vendored';

const RANK: Record<FileKind, number> = { source: 0, test: 1, vendored: 2 };

/** Folders of code copied in from elsewhere (the package managers' own, node_modules and the like, are never indexed at all). */
const VENDORED_FOLDERS = new Set([
  'vendor',
  'vendors',
  'vendored',
  'third_party',
  'third-party',
  'thirdparty',
  'external',
  'externals',
  'extern',
  'deps',
  'pods',
  'carthage',
]);

/** Folders of tests and what they run on. */
const TEST_FOLDERS = new Set([
  'test',
  'tests',
  '__tests__',
  'spec',
  'specs',
  'testing',
  'testdata',
  'test-data',
  'fixtures',
  '__fixtures__',
  '__mocks__',
  'e2e',
  'androidtest',
]);

/** Test files by name: `x.test.ts`, `x.spec.js`, `x_test.go`, `test_x.py`, `XTest.java`, `XTests.cs`, `x_spec.rb`. */
const TEST_FILE = /(?:[._-](?:test|spec)s?\.[^./]+$)|(?:^test_[^/]*\.py$)|(?:[a-z0-9]Tests?\.(?:java|kt|kts|scala|cs|swift|groovy)$)/;

/** What kind of file `path` (relative, `/`-separated) is, by its path alone. */
export function fileKind(path: string): FileKind {
  const parts = path.split('/');
  const name = parts.pop()!;
  const folders = parts.map((part) => part.toLowerCase());
  if (folders.some((folder) => VENDORED_FOLDERS.has(folder))) return 'vendored';
  if (folders.some((folder) => TEST_FOLDERS.has(folder)) || TEST_FILE.test(name)) return 'test';
  return 'source';
}

/**
 * The `max` files of `files` to keep, in the order they came (see the file comment for which), and
 * how many were left out.
 */
export function keepWithinLimit<T extends { path: string }>(files: readonly T[], max: number): { kept: T[]; left: number } {
  if (files.length <= max) return { kept: [...files], left: 0 };
  const ranked = files.map((file, order) => ({ order, kind: RANK[fileKind(file.path)], depth: slashes(file.path) }));
  ranked.sort((a, b) => a.kind - b.kind || a.depth - b.depth || a.order - b.order);
  const keep = ranked.slice(0, Math.max(0, max)).map((entry) => entry.order);
  keep.sort((a, b) => a - b);
  return { kept: keep.map((order) => files[order]), left: files.length - keep.length };
}

function slashes(path: string): number {
  let count = 0;
  for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1)) count++;
  return count;
}
