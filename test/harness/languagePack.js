// A display language other than English for a test window, where no Marketplace can be reached to
// install Microsoft's language pack: test/integration/languagePack is a language pack for Russian
// with no translations of VS Code's own texts (they stay English). With it installed and the window
// started with `--locale ru`, vscode.env.language is `ru`, and extensions load their Russian strings
// (package.nls.ru.json, l10n/bundle.l10n.ru.json).
'use strict';

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const cs = require('./codeServer');

const root = path.resolve(__dirname, '..', '..');
const PACK_ID = 'gigachat-vscode-tests.russian-language-pack-for-tests';

/** Packages the pack into out/test/integration/languagePack.vsix. */
function packageLanguagePack() {
  const packDir = path.join(root, 'out', 'test', 'integration', 'languagePack');
  fs.cpSync(path.join(root, 'test', 'integration', 'languagePack'), packDir, { recursive: true });
  const vsix = path.join(packDir, '..', 'languagePack.vsix');
  const vsce = path.join(root, 'node_modules', '.bin', 'vsce');
  execFileSync(vsce, ['package', '--no-dependencies', '--skip-license', '--allow-missing-repository', '--out', vsix], { cwd: packDir, stdio: 'pipe' });
  return vsix;
}

/**
 * Installs the pack for a profile. The server reads which language packs exist from
 * <user data>/languagepacks.json when it starts, but installing from the command line does not
 * write that file (VS Code writes it later, once running): it is written here as VS Code would.
 */
function installLanguagePack({ userDataDir, extensionsDir }) {
  cs.installExtension({ vsix: packageLanguagePack(), userDataDir, extensionsDir });
  const { version } = JSON.parse(fs.readFileSync(path.join(root, 'test', 'integration', 'languagePack', 'package.json'), 'utf8'));
  const installed = path.join(extensionsDir, `${PACK_ID}-${version}`);
  const packs = {
    ru: {
      hash: `test-${version}`,
      extensions: [{ extensionIdentifier: { id: PACK_ID }, version }],
      translations: { vscode: path.join(installed, 'translations', 'main.i18n.json') },
      label: 'русский',
    },
  };
  fs.writeFileSync(path.join(userDataDir, 'languagepacks.json'), JSON.stringify(packs));
}

module.exports = { installLanguagePack };
