// Prints the results the suite wrote (test/integration/runSuite.ts: SuiteResults) like mocha does.
// The last line is exactly `N passed, N failed`, the line CI reads.
'use strict';

const MARKS = { passed: '✔', failed: '✖', pending: '-' };

function report(results) {
  console.log(`\n  ${results.appName} ${results.vscodeVersion}\n`);
  for (const test of results.tests) {
    const time = test.durationMs ? ` (${test.durationMs} ms)` : '';
    console.log(`  ${MARKS[test.state]} ${test.fullTitle}${time}`);
    if (test.error) console.log(`      ${(test.error.stack || test.error.message).split('\n').join('\n      ')}`);
  }
  for (const retry of results.retried ?? []) {
    console.log(`  ↻ retried: ${retry.fullTitle}\n      first attempt: ${retry.message.split('\n').join('\n      ')}`);
  }
  // Repeated at the end, because CI shows only the tail of a long run.
  for (const test of results.tests.filter((t) => t.state === 'failed')) {
    const message = (test.error?.message ?? '').split('\n').slice(0, 6).join('\n      ');
    console.log(`  ✖ failed: ${test.fullTitle}\n      ${message}`);
  }
  if (results.pending > 0) console.log(`\n${results.pending} pending`);
  if (results.passed + results.failed === 0) console.log('\nno test ran');
  console.log(`\n${results.passed} passed, ${results.failed} failed`);
}

/** For a run that broke before the suite could report: counted as a failure, never as success. */
function reportBrokenRun() {
  console.log('\n0 passed, 1 failed');
}

/** Whether a run passed: something ran and nothing failed. */
function passed(results) {
  return Boolean(results && !results.error && results.failed === 0 && results.passed > 0);
}

module.exports = { report, reportBrokenRun, passed };
