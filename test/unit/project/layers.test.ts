import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { lintProblems } from '../support/lintProblems';

/** The messages of the layer rules (test/lint/layers.mjs) for `code` as if it were the file `file`. */
const layerProblems = (file: string, code: string) => lintProblems('layers.mjs', 'layerRules', file, code);

/** The layers of src/ are kept by the linter: a wrong-way import planted in each one fails `npm run lint`. */
describe('layers', function () {
  this.timeout(30_000);

  const wrongWay: [file: string, importLine: string][] = [
    ['src/core/planted.ts', "import * as vscode from 'vscode';"],
    ['src/core/planted.ts', "import { settingId } from '../shared/settings';"],
    ['src/core/search/files/planted.ts', "import { webviewStrings } from '../../../shared/strings';"],
    ['src/core/planted.ts', "import { Log } from '../host/log';"],
    ['src/webview/planted.ts', "import { modelLimits } from '../core';"],
    ['src/webview/planted.ts', "import * as vscode from 'vscode';"],
    ['src/shared/planted.ts', "import { ServiceError } from '../core/serviceError';"],
    ['src/serviceFacts/planted.ts', "import { ServiceError } from '../core/serviceError';"],
    ['src/host/planted.ts', "import { redactSecrets } from '../core/base/redact';"],
    ['src/host/search/planted.ts', "import { keywordIndex } from '../../core/search/keyword/keywordIndex';"],
  ];
  for (const [file, line] of wrongWay) {
    it(`refuses ${line} in ${path.dirname(file)}`, async () => {
      const problems = await layerProblems(file, `${line}\nexport const planted = 1;\n`);
      assert.equal(problems.length, 1, JSON.stringify(problems));
      assert.equal(problems[0].ruleId, 'no-restricted-imports');
    });
  }

  const rightWay: [file: string, importLine: string][] = [
    ['src/core/planted.ts', "import { MAX_IMAGE_BYTES } from '../serviceFacts/fileFacts';"],
    ['src/core/search/planted.ts', "import { ServiceError } from '../serviceError';"],
    ['src/webview/planted.ts', "import { LIMITS } from '../shared/protocol';"],
    ['src/host/planted.ts', "import * as vscode from 'vscode';"],
    ['src/host/chat/planted.ts', "import { ServiceError } from '../../core';"],
  ];
  for (const [file, line] of rightWay) {
    it(`allows ${line} in ${path.dirname(file)}`, async () => {
      assert.deepEqual(await layerProblems(file, `${line}\nexport const planted = 1;\n`), []);
    });
  }
});
