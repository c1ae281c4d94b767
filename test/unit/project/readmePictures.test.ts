import * as assert from 'node:assert/strict';
import { repoRoot as root } from '../support/repoRoot';
import * as fs from 'node:fs';
import * as path from 'node:path';

// The list the integration suite's screenshot handlers copy from (plain JavaScript, as the harness is).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { README_PICTURES } = require(path.join(root, 'test/harness/readmePictures.js')) as { README_PICTURES: string[] };

/** The README shows only pictures the integration suite takes of the build under test, so none can show an old look. */
describe('README pictures', () => {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const shown = [...readme.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map(([, target]) => target);

  it('shows at least four pictures, each one the suite takes, and each file exists', () => {
    assert.ok(shown.length >= 4, `${shown.length} pictures`);
    for (const target of shown) {
      const name = /^media\/readme\/([\w-]+)\.png$/.exec(target)?.[1];
      assert.ok(name && README_PICTURES.includes(name), `${target} is not one of the suite's screenshots`);
      assert.ok(fs.existsSync(path.join(root, target)), `${target} is missing: run npm run test:integration`);
    }
  });

  it('shows each feature in a dark and in a light theme', () => {
    assert.ok(shown.includes('media/readme/chat-dark.png') && shown.includes('media/readme/chat-light.png'));
    for (const target of shown) {
      const [, feature, theme] = /^media\/readme\/([\w-]+)-(dark|light)\.png$/.exec(target) ?? [];
      assert.ok(feature, `${target} says which theme it shows`);
      const other = `media/readme/${feature}-${theme === 'dark' ? 'light' : 'dark'}.png`;
      assert.ok(shown.includes(other), `${target} has its other theme beside it (${other})`);
    }
  });
});
