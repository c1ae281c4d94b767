import * as assert from 'node:assert/strict';
import { repoRoot } from '../../support/repoRoot';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SETTING_BOUNDS, withinBounds, type BoundedSetting } from '../../../../src/host/settings/settingBounds';
import { settingId } from '../../../../src/shared/settings';

interface Property {
  default?: unknown;
  minimum?: number;
  maximum?: number;
}
const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, Property> }[] };
};
const properties = Object.assign({}, ...manifest.contributes.configuration.map((category) => category.properties)) as Record<string, Property>;
const keys = Object.keys(SETTING_BOUNDS) as BoundedSetting[];

/** A hand-edited or hostile settings.json: the schema only warns, the code keeps the numbers sane. */
describe('numbers read from the settings', () => {
  it('are bounded for the completions’ wait and context, as package.json says', () => {
    assert.ok(keys.includes('completions.debounceMs') && keys.includes('completions.contextTokens'));
    for (const key of keys) {
      const { minimum, maximum } = properties[settingId(key)];
      assert.deepEqual({ min: minimum, max: maximum }, SETTING_BOUNDS[key], key);
    }
  });

  it('a wait of an hour is cut to two seconds, a context of a million tokens to 16,384, a negative one raised to the least', () => {
    assert.equal(withinBounds('completions.debounceMs', 3_600_000, 300), 2000);
    assert.equal(withinBounds('completions.contextTokens', 1_000_000, 1024), 16384);
    assert.equal(withinBounds('completions.contextTokens', -5, 1024), 128);
    assert.equal(withinBounds('completions.debounceMs', -1, 300), 0);
  });

  it('what is not a number gives the default; a fraction is rounded; a sane value is kept', () => {
    for (const value of ['300', null, undefined, Number.NaN, Number.POSITIVE_INFINITY, {}, [500]])
      assert.equal(withinBounds('completions.debounceMs', value, 300), 300, JSON.stringify(value));
    assert.equal(withinBounds('completions.contextTokens', 2048.6, 1024), 2049);
    assert.equal(withinBounds('requestTimeout', 90, 90), 90);
  });
});
