import * as assert from 'node:assert/strict';
import { lintProblems } from '../support/lintProblems';

/** The messages of the settings rules (test/lint/settings.mjs) for `code` as if it were the file `file`. */
const settingsProblems = (file: string, code: string) => lintProblems('settings.mjs', 'settingsRules', file, `${code}\nexport const planted = 1;\n`);

/**
 * The host reads the extension's settings one way, through the SettingsReader it is handed: a
 * feature that asks VS Code for them, listens to their changes or builds a reader of its own fails
 * `npm run lint`.
 */
describe('settings reads', function () {
  this.timeout(30_000);

  const refused: [file: string, code: string][] = [
    ['src/host/chat/planted.ts', "import * as vscode from 'vscode';\nconst model = vscode.workspace.getConfiguration('gigachat').get('model');"],
    ['src/host/planted.ts', "import { workspace } from 'vscode';\nconst model = workspace.getConfiguration('gigachat').get('model');"],
    ['src/host/search/planted.ts', "import * as vscode from 'vscode';\nconst { getConfiguration } = vscode.workspace;"],
    ['src/host/lm/planted.ts', "import * as vscode from 'vscode';\nvscode.workspace.onDidChangeConfiguration(() => undefined);"],
    ['src/host/scm/planted.ts', "import { VsCodeSettings } from '../settings/vscodeSettings';\nconst settings = new VsCodeSettings();"],
    ['src/extension.ts', "import * as vscode from 'vscode';\nconst on = vscode.workspace.getConfiguration('gigachat').get('completions.enable');"],
  ];
  for (const [file, code] of refused) {
    it(`refuses in ${file}: ${code.split('\n')[1]}`, async () => {
      const problems = await settingsProblems(file, code);
      assert.equal(problems.length, 1, JSON.stringify(problems));
      assert.equal(problems[0].ruleId, 'no-restricted-syntax');
    });
  }

  const allowed: [file: string, code: string][] = [
    [
      'src/host/chat/planted.ts',
      "import type { SettingsReader } from '../settings/settingsReader';\nexport const model = (settings: SettingsReader) => settings.get('model');",
    ],
    ['src/host/settings/planted.ts', "import * as vscode from 'vscode';\nconst model = vscode.workspace.getConfiguration('gigachat').get('model');"],
    ['src/host/services.ts', "import { VsCodeSettings } from './settings/vscodeSettings';\nconst settings = new VsCodeSettings();"],
  ];
  for (const [file, code] of allowed) {
    it(`allows in ${file}: ${code.split('\n')[1]}`, async () => {
      assert.deepEqual(await settingsProblems(file, code), []);
    });
  }

  it('refuses a read in services.ts too: it builds the reader, it does not bypass it', async () => {
    const problems = await settingsProblems(
      'src/host/services.ts',
      "import * as vscode from 'vscode';\nconst model = vscode.workspace.getConfiguration('gigachat').get('model');",
    );
    assert.equal(problems.length, 1, JSON.stringify(problems));
  });
});
