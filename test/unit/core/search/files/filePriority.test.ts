import * as assert from 'node:assert/strict';
import { selectFiles, type FolderSource } from '../../../../../src/core';
import { fileKind, keepWithinLimit } from '../../../../../src/core/search/files/filePriority';

/** A folder whose listing is `paths`, answered at once (no I/O, so no turn of the event loop unless selection yields). */
function listedFolder(paths: string[], onKey?: () => void): FolderSource {
  return {
    listFiles: () => Promise.resolve(paths),
    readFile: () => Promise.resolve(undefined),
    fileSize: () => Promise.resolve(undefined),
    linkProbe: () => ({ entries: () => Promise.resolve(undefined), isLink: () => Promise.resolve(false), follow: () => Promise.resolve('linkBroken') }),
    keyOf: (path) => {
      onKey?.();
      return `mem:${path}`;
    },
  };
}

describe('which files semantic search keeps over gigachat.search.maxFiles', () => {
  it('tells tests and vendored code from the project’s own by path', () => {
    const kinds: Record<string, string[]> = {
      source: [
        'src/upload.ts',
        'README.md',
        'lib/testing-library-adapter.ts',
        'src/contest.ts',
        'src/latest.py',
        'docs/specification.md',
        'src/Testimony.java',
      ],
      test: [
        'test/upload.test.ts',
        'src/__tests__/upload.ts',
        'src/upload.spec.js',
        'pkg/server_test.go',
        'tests/test_upload.py',
        'app/src/test/java/UploadTest.java',
        'Sources/UploadTests.swift',
        'spec/models/user_spec.rb',
        'src/fixtures/big.json',
      ],
      vendored: ['vendor/github.com/pkg/errors/errors.go', 'third_party/zlib/inflate.c', 'lib/External/json.hpp', 'vendor/lib/test/x.test.ts'],
    };
    for (const [kind, paths] of Object.entries(kinds)) for (const path of paths) assert.equal(fileKind(path), kind, path);
  });

  it('keeps the project’s code first, then tests, then vendored code; nearer the root first; in the order they came', () => {
    const files = [
      'src/deep/er/still/a.ts',
      'src/a.test.ts',
      'src/b.ts',
      'test/helpers.ts',
      'vendor/lib.ts',
      'main.ts',
      'src/deep/c.ts',
      'third_party/z.c',
    ].map((path) => ({ path }));
    const keep = (max: number) => keepWithinLimit(files, max).kept.map((file) => file.path);
    assert.deepEqual(keep(2), ['src/b.ts', 'main.ts']);
    assert.deepEqual(keep(4), ['src/deep/er/still/a.ts', 'src/b.ts', 'main.ts', 'src/deep/c.ts']);
    assert.deepEqual(keep(6), ['src/deep/er/still/a.ts', 'src/a.test.ts', 'src/b.ts', 'test/helpers.ts', 'main.ts', 'src/deep/c.ts']);
    assert.deepEqual(keepWithinLimit(files, 7).left, 1);
    assert.deepEqual(
      keep(8),
      files.map((file) => file.path),
    );
    assert.deepEqual(keep(0), []);
  });

  it('applies across the whole workspace and counts what it leaves out', async () => {
    const paths = [...Array.from({ length: 30 }, (_, i) => `app/__tests__/t${i}.ts`), ...Array.from({ length: 10 }, (_, i) => `src/m${i}.ts`)];
    const selection = await selectFiles([listedFolder(paths)], { maxFiles: 15, maxFileBytes: 1 << 20 });
    const kept = selection.files.map((file) => file.path);
    assert.equal(kept.length, 15);
    assert.ok(
      paths.filter((path) => path.startsWith('src/')).every((path) => kept.includes(path)),
      'every source file is kept before any test',
    );
    assert.equal(selection.skipped.get('overLimit'), 25);
  });

  it('lets the event loop run while it checks a large workspace’s paths (the status bar and a dialog stay responsive)', async () => {
    const paths = Array.from({ length: 20_000 }, (_, i) => `src/module${i % 50}/file${i}.ts`);
    let turned = false;
    let turnedBeforeTheLastPath = false;
    let keys = 0;
    setImmediate(() => (turned = true));
    await selectFiles(
      [
        listedFolder(paths, () => {
          if (++keys === paths.length) turnedBeforeTheLastPath = turned;
        }),
      ],
      { maxFiles: 50_000, maxFileBytes: 1 << 20 },
    );
    assert.ok(turnedBeforeTheLastPath, 'the event loop ran while the paths were checked');
  });
});
