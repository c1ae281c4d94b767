// Checks the outer runner makes once the suite inside VS Code has finished, for what the suite
// cannot see from inside: a window reload (which ends the extension host the suite runs in), and
// the files VS Code wrote (logs, state databases, settings), which must not hold the key.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { chatFrame } = require('./webviewDriver');

async function check(title, fn) {
  const started = Date.now();
  try {
    await fn();
    return { fullTitle: `after the suite ${title}`, state: 'passed', durationMs: Date.now() - started };
  } catch (error) {
    return { fullTitle: `after the suite ${title}`, state: 'failed', error: { message: String(error.message), stack: error.stack } };
  }
}

/** Files under `dir` whose bytes contain `needle` (text or binary; SQLite state databases included). */
function filesContaining(dir, needle) {
  const hits = [];
  const bytes = Buffer.from(needle, 'utf8');
  const visit = (folder) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (entry.isFile() && fs.readFileSync(file).includes(bytes)) hits.push(file);
    }
  };
  visit(dir);
  return hits;
}

async function afterSuiteChecks(ctx, { userDataDir, key }) {
  const page = ctx.page;
  return [
    await check('the conversation survives a window reload', async () => {
      // The last question of whichever conversation the suite left open.
      const questions = await (await chatFrame(page)).locator('.turn-user .user-text').allTextContents();
      const lastQuestion = questions.at(-1);
      if (!lastQuestion) throw new Error('the suite left no conversation open, so a reload proves nothing');
      await page.reload();
      const frame = await chatFrame(page, 60_000);
      await frame.waitForFunction((text) => [...document.querySelectorAll('.turn-user .user-text')].some((e) => e.textContent === text), lastQuestion, {
        timeout: 30_000,
      });
    }),
    await check('the authorization key is in no log, state, settings file or webview page', async () => {
      const hits = filesContaining(userDataDir, key);
      if (hits.length) throw new Error(`the key was found in:\n${hits.join('\n')}`);
      const frame = await chatFrame(page);
      const html = await frame.evaluate(() => document.documentElement.outerHTML);
      if (html.includes(key)) throw new Error('the key is in the chat webview');
      // The scan proves something only if the extension's log exists and recorded the key's use.
      const logs = filesContaining(userDataDir, 'Access token received');
      if (!logs.some((file) => file.includes('gigachat-vscode.gigachat'))) throw new Error('the GigaChat log was not found, so the scan proves nothing');
    }),
  ];
}

module.exports = { afterSuiteChecks };
