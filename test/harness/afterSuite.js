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

const INDEX_ITEM = '.statusbar-item[id="gigachat-vscode.gigachat.gigachat.searchIndex"]';
/** What the last suite allows in flight when the window reloads: two requests of two texts (suite/16-reload.test.ts). */
const TEXTS_IN_FLIGHT = 2 * 2;

/** The texts the emulator was asked to embed since the last suite reset its counts. */
function embeddedTexts(emulator) {
  return emulator.requests.filter((request) => request.endpoint === 'embeddings').flatMap((request) => JSON.parse(request.body).input);
}

function indexStatus(page) {
  return page
    .locator(INDEX_ITEM)
    .first()
    .innerText({ timeout: 5_000 })
    .catch(() => '');
}

/** What the chat view holds that a reload must bring back: the last question, the code attached to the next, the draft. */
function chatContents(frame) {
  return frame.evaluate(() => ({
    lastQuestion: [...document.querySelectorAll('.turn-user .user-text')].at(-1)?.textContent.trim() ?? '',
    chips: [...document.querySelectorAll('.attachment-chip')].map((chip) => chip.textContent.trim()),
    draft: document.querySelector('textarea')?.value ?? '',
  }));
}

async function afterSuiteChecks(ctx, { userDataDir, key }) {
  const page = ctx.page;
  let sentBeforeReload = [];
  return [
    // Before the reload: the messages seen so far are the whole suite's.
    await check('the authorization key is in no message a webview received', async () => {
      const { states, leaks } = ctx.webviewMessages;
      if (states === 0) throw new Error('no chat state message was seen, so the watch proves nothing');
      if (leaks.length) throw new Error(`the key is in ${leaks.length} webview message(s), e.g. ${leaks[0]}`);
    }),
    // The last suite left indexing under way (slowly): the reload below cuts it short.
    await check('indexing is still under way when the window reloads', async () => {
      const status = await indexStatus(page);
      sentBeforeReload = embeddedTexts(ctx.emulator);
      if (!/Indexing/.test(status)) throw new Error(`the status bar shows "${status}", so the reload would not cut indexing short`);
      if (sentBeforeReload.length === 0) throw new Error('nothing was embedded before the reload, so the check proves nothing');
    }),
    await check('the conversation, the code attached to the next message and its draft survive a window reload', async () => {
      // The open conversation is whichever suite asked last: its last question must come back. The
      // last suite (suite/16-reload.test.ts) left a file attached and a question half typed. (VS Code
      // restored an older webview state here, which once brought back an empty input.)
      const expected = await chatContents(await chatFrame(page));
      if (!expected.lastQuestion) throw new Error('the chat shows no question before the reload');
      if (expected.chips.length === 0 || !expected.draft)
        throw new Error(`no attached code or no draft before the reload, so the check proves nothing: ${JSON.stringify(expected)}`);
      await page.reload();
      const frame = await chatFrame(page, 60_000);
      await frame.waitForFunction(
        (text) => [...document.querySelectorAll('.turn-user .user-text')].some((e) => e.textContent.trim() === text),
        expected.lastQuestion,
        {
          timeout: 30_000,
        },
      );
      const after = await chatContents(frame);
      if (JSON.stringify(after) !== JSON.stringify(expected))
        throw new Error(`before the reload ${JSON.stringify(expected)}, after it ${JSON.stringify(after)}`);
    }),
    // Runs just after the reload above, once the chat came back: the extension has started again.
    await check('after the reload, with a key set, neither the walkthrough nor the notice offering a key comes back', async () => {
      const notices = await page.locator('.notification-toast .notification-list-item-message').allInnerTexts();
      if (notices.some((text) => text.includes('your own authorization key'))) throw new Error(`the notice offering a key is back: ${notices.join(' | ')}`);
      if ((await page.locator('.gettingStartedContainer').count()) > 0) throw new Error('the walkthrough opened again');
    }),
    await check('indexing cut short by the reload resumes by itself and embeds again at most the texts that were in flight', async () => {
      await ctx.emulator.setOptions({ latencyMs: 0 });
      const ready = /GigaChat · \d[\d,\s]* files? indexed/;
      const deadline = Date.now() + 60_000;
      let status = '';
      while (!ready.test((status = await indexStatus(page)))) {
        if (Date.now() > deadline) throw new Error(`indexing did not finish after the reload: the status bar shows "${status}"`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const sent = embeddedTexts(ctx.emulator);
      const distinct = new Set(sent).size;
      const before = new Set(sentBeforeReload);
      const again = sent.slice(sentBeforeReload.length).filter((text) => before.has(text));
      console.log(
        `[integration] reload mid-indexing: ${sentBeforeReload.length} texts embedded before the reload, ${sent.length - sentBeforeReload.length} after, ` +
          `${again.length} of them again; ${distinct} distinct`,
      );
      if (sentBeforeReload.length >= distinct) throw new Error(`all ${distinct} texts were embedded before the reload: it cut nothing short`);
      if (again.length > TEXTS_IN_FLIGHT || sent.length > distinct + TEXTS_IN_FLIGHT)
        throw new Error(
          `${sent.length} texts embedded for ${distinct} distinct ones; ${again.length} of the ${sentBeforeReload.length} sent before the reload were sent again ` +
            `(at most ${TEXTS_IN_FLIGHT} were in flight)`,
        );
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
