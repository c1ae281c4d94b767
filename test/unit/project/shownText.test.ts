import * as assert from 'node:assert/strict';
import { repoRoot as root } from '../support/repoRoot';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NOTIFY, uncheckedShownText } from '../support/shownText';

/**
 * VS Code renders `[text](command:…)` in a notification as a link that runs the command, Restricted
 * Mode or not. Every notification and dialog goes through host/notify.ts, which neutralizes its
 * whole text with `plainLabel`; every value from outside the extension's own strings (a file or
 * folder name, a setting, the service's or the model's text) that a QuickPick or a progress title
 * shows goes through `plainLabel` where it is shown.
 */
describe('shown text: no outside value reaches a notification or a QuickPick unneutralized', function () {
  this.timeout(120_000);

  it('shows notifications only through notify(), which neutralizes message and detail; QuickPick items and progress titles through plainLabel', () => {
    assert.deepEqual(uncheckedShownText(root), []);
  });

  it('finds a notification shown around notify(), even one of the extension’s own words', () => {
    const planted = `import * as vscode from 'vscode';\nexport const planted = () => vscode.window.showInformationMessage(vscode.l10n.t('Done.'));\n`;
    const found = uncheckedShownText(root, { 'src/host/chat/planted.ts': planted });
    assert.deepEqual(
      found.map((each) => each.sink),
      ['src/host/chat/planted.ts:2'],
    );
    assert.match(found[0].value, /showInformationMessage outside src\/host\/notify\.ts/);
  });

  it('finds a notify() that shows its message or its detail as given', () => {
    const notify = fs.readFileSync(path.join(root, NOTIFY), 'utf8');
    const careless = notify.replace('plainLabel(message)', 'message').replace('plainLabel(options.detail)', 'options.detail');
    assert.equal(careless.match(/plainLabel\(/g)?.length, undefined, 'both neutralizations were taken out of the planted copy');
    const found = uncheckedShownText(root, { [NOTIFY]: careless.replace("import { plainLabel } from './plainLabel';\n", '') });
    const values = found.map((each) => each.value.replace(/^\S+ /, ''));
    assert.deepEqual(values.sort(), ['message', 'options.detail']);
  });
});
