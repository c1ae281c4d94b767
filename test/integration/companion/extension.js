// Test-only extension, installed next to the product by test/harness/runIntegration.js.
// code-server cannot load a development extension or an extensionTestsPath (see
// test/integration/README.md), so this companion does what VS Code's test
// runner would: test/harness/build.js bundles the suite and its mocha runner (runSuite.js, shared
// with @vscode/test-electron) into this extension's folder, and on startup this runs it inside the
// extension host. The results go to the outer runner through a file named in the environment,
// which the extension host inherits from code-server.
'use strict';

const fs = require('node:fs');

function writeResults(file, results) {
  // Renamed into place so the outer runner, which polls for the file, never reads half of it.
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(results, null, 2));
  fs.renameSync(`${file}.tmp`, file);
}

exports.activate = function activate() {
  const resultsFile = process.env.GIGACHAT_IT_RESULTS;
  if (!resultsFile) return; // installed outside the runner: stay inert
  if (fs.existsSync(resultsFile)) return; // a window reloaded after the suite ran: run it only once
  // Not awaited: activation must finish so the workbench and the product go on starting.
  Promise.resolve()
    .then(() => require('./runSuite.js').runSuite({ color: false }))
    .then((results) => writeResults(resultsFile, results))
    // The suite could not load or run: still answer, so the outer runner need not time out.
    .catch((error) => writeResults(resultsFile, { error: String((error && error.stack) || error) }));
};

exports.deactivate = function deactivate() {};
