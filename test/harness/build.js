// Builds the test-only companion extension, with the integration suite inside it, into
// out/test/integration/companion/ (an unpacked extension) and out/test/integration/companion.vsix:
//   package.json, extension.js   copied from test/integration/companion/
//   runSuite.js                  test/integration/runSuite.ts with mocha bundled in; also the
//                                extensionTestsPath given to @vscode/test-electron
//   suite/**/*.test.js           the tests, each bundled with what it imports
//   mcp/ottersServer.js          the MCP server 12-vscode-chat starts, copied as it is
// The suite lives inside the companion's folder because VS Code gives the real `vscode` API only to
// code inside an extension's folder (elsewhere it warns and hands out a default one), and because an
// installed extension must not depend on the repository's node_modules. Only `vscode` is external.
'use strict';

const { execFileSync } = require('node:child_process');
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const sourceDir = path.join(root, 'test', 'integration');
const outDir = path.join(root, 'out', 'test', 'integration');
const companionDir = path.join(outDir, 'companion');

async function buildSuite() {
  // From scratch, so a test file deleted from the sources does not go on running from out/.
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(companionDir, { recursive: true });
  for (const file of ['package.json', 'extension.js']) {
    fs.copyFileSync(path.join(sourceDir, 'companion', file), path.join(companionDir, file));
  }
  fs.cpSync(path.join(sourceDir, 'mcp'), path.join(companionDir, 'mcp'), { recursive: true });
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['test/integration/runSuite.ts', 'test/integration/suite/**/*.test.ts'],
    outdir: companionDir,
    outbase: 'test/integration',
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20.18',
    external: ['vscode'],
    // Mocha is ESM and reads import.meta.url, which a CommonJS bundle lacks.
    define: { 'import.meta.url': '__importMetaUrl' },
    banner: { js: "const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    // mocha's parallel mode (unused here) names worker files that are not bundled.
    logOverride: { 'require-resolve-not-external': 'silent' },
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  return { companionDir, runner: path.join(companionDir, 'runSuite.js') };
}

/** Packages the built companion, so code-server installs it the supported way. */
function packageCompanion() {
  const vsix = path.join(outDir, 'companion.vsix');
  const vsce = path.join(root, 'node_modules', '.bin', 'vsce');
  const args = ['package', '--no-dependencies', '--skip-license', '--allow-missing-repository', '--out', vsix];
  execFileSync(vsce, args, { cwd: companionDir, stdio: 'pipe' });
  return vsix;
}

module.exports = { buildSuite, packageCompanion };

if (require.main === module) {
  buildSuite()
    .then(packageCompanion)
    .then((vsix) => console.log(`built ${path.relative(root, vsix)}`))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
