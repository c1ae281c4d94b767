import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { uncheckedShownText } from './support/shownText';

/**
 * VS Code renders `[text](command:…)` in a notification as a link that runs the command, Restricted
 * Mode or not. Every value from outside the extension's own strings (a file or folder name, a
 * setting, the service's or the model's text) that a notification or a QuickPick shows goes through
 * `plainLabel`.
 */
describe('shown text: no outside value reaches a notification or a QuickPick unneutralized', () => {
  it('every value interpolated into show*Message, its detail, a progress title or a QuickPick item goes through plainLabel', function () {
    this.timeout(120_000);
    const unchecked = uncheckedShownText(path.resolve(__dirname, '../../..'));
    assert.deepEqual(unchecked, []);
  });
});
