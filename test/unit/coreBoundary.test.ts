import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The core must run without VS Code: tests, benchmarks and other hosts load it directly. */
describe('core boundary', () => {
  it('no file under src/core imports vscode', () => {
    const root = path.resolve(__dirname, '../../../src/core');
    const offenders: string[] = [];
    const visit = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) visit(file);
        else if (/\.[cm]?[jt]sx?$/.test(entry.name) && /(?:from\s+|require\(\s*|import\(\s*)['"]vscode['"]/.test(fs.readFileSync(file, 'utf8'))) {
          offenders.push(path.relative(root, file));
        }
      }
    };
    visit(root);
    assert.ok(fs.existsSync(path.join(root, 'index.ts')), 'the core was not found where the test looks');
    assert.deepEqual(offenders, []);
  });
});
