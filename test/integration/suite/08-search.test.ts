import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  answerIndexingQuestion,
  chatView,
  embeddedTexts,
  emulator,
  ensureKey,
  openChat,
  productLog,
  productStorage,
  screenshotInBothThemes,
  until,
  workbench,
} from '../drivers';
import { hasOuterRunner } from '../outer';

const QUERY = 'where do we retry failed uploads';
const SECRET = 'sk-live-never-leaves-the-machine';
const STATUS_ITEM = 'gigachat-vscode.gigachat.gigachat.searchIndex';

/** A small project: each file is about one thing, so the file sharing the query's words must come first. */
const FILES: Record<string, string> = {
  'search-fixture/src/uploads.ts': [
    'export async function retryFailedUploads(queue: string[]): Promise<void> {',
    '  // where uploads failed, retry each upload with backoff until the retry budget is spent',
    '  for (const upload of queue) await retryUpload(upload);',
    '}',
    'declare function retryUpload(upload: string): Promise<void>;',
  ].join('\n'),
  'search-fixture/src/uploadQueue.ts': 'export const pendingUploads: string[] = []; // uploads waiting in the queue until they are sent\n',
  'search-fixture/src/theme.ts': 'export const palette = { dark: "#1e1e1e", light: "#ffffff" }; // theme colours for buttons and contrast\n',
  'search-fixture/src/database.ts':
    'export function migrate(table: string): string { return `ALTER TABLE ${table} ADD COLUMN created_at`; } // schema migration\n',
  'search-fixture/docs/setup.md': '# Setup\n\nInstall the extension, set the proxy and trust the certificate in settings.\n',
  // Must never be sent: a secret file, a .gitignored file and a dependency, all talking about the query.
  'search-fixture/.env': `UPLOAD_TOKEN=${SECRET} # retry failed uploads\n`,
  'search-fixture/.gitignore': 'scratch/\n',
  'search-fixture/scratch/notes.ts': '// ignored: retry failed uploads scratch notes\n',
  'search-fixture/node_modules/uploader/index.js': '// dependency: retry failed uploads\n',
};

function fixtureUri(path: string): vscode.Uri {
  return vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, path);
}

/** Runs the search command with `query` and returns the picker's rows (then closes it). */
async function searchRows(query: string): Promise<string[]> {
  const rows = await resultRows(query).catch(async () => {
    // A notification taking the focus closes a quick pick: the results are asked for again, as a person would.
    await workbench.closeQuickInput().catch(() => undefined);
    return resultRows(query);
  });
  await workbench.closeQuickInput();
  return rows;
}

async function resultRows(query: string): Promise<string[]> {
  void vscode.commands.executeCommand('gigachat.semanticSearch', query);
  return workbench.quickPickRows({ title: `results for “${query}”` });
}

/** Starts a command that asks before sending the workspace, and agrees (sends the files). Returns the question. */
async function startWithConsent(command: string, ...args: unknown[]): Promise<string> {
  return (await answerIndexingQuestion('Send and Index', command, ...args)).question;
}

const settings = () => vscode.workspace.getConfiguration('gigachat');

/**
 * Runs `body` with indexing slowed down: one text per request, one request at a time, each
 * answered after `latencyMs`. So every text sent before a given moment was finished, except the
 * one in flight, and a test can act while a scan is under way.
 */
async function withSlowIndexing(latencyMs: number, body: () => Promise<void>): Promise<void> {
  await settings().update('search.batchSize', 1, vscode.ConfigurationTarget.Global);
  await settings().update('search.maxRequestsInFlight', 1, vscode.ConfigurationTarget.Global);
  await emulator.setOptions({ latencyMs });
  try {
    await body();
  } finally {
    await emulator.setOptions({ latencyMs: 0 });
    await settings().update('search.batchSize', undefined, vscode.ConfigurationTarget.Global);
    await settings().update('search.maxRequestsInFlight', undefined, vscode.ConfigurationTarget.Global);
  }
}

/** Deletes the index and starts building it anew (agreeing to send the files); returns the consent question. */
async function startFreshIndex(): Promise<string> {
  await vscode.commands.executeCommand('gigachat.clearSearchIndex');
  await vscode.commands.executeCommand('notifications.clearAll'); // the messages to wait for must be this run's
  await emulator.resetCounts();
  return startWithConsent('gigachat.rebuildSearchIndex');
}

async function someFilesIndexed(): Promise<void> {
  await until(async () => /Indexing [1-9]/.test(await workbench.statusBarText(STATUS_ITEM)), 'a file or two indexed', 30_000);
}

/** The premise of a test that acts during a scan: had the scan ended, the test would prove nothing. */
async function assertStillIndexing(): Promise<void> {
  assert.match(await workbench.statusBarText(STATUS_ITEM), /Indexing/, 'the scan is still running');
}

/** A reader of what the product's log channel writes from now on. */
async function logFromNow(): Promise<() => string> {
  const userData = path.join(await productStorage(), '..', '..', '..');
  const logFile = (fs.readdirSync(path.join(userData, 'logs'), { recursive: true }) as string[])
    .filter((file) => file.endsWith('GigaChat.log'))
    .map((file) => path.join(userData, 'logs', file))
    .sort()
    .at(-1)!;
  const logged = fs.readFileSync(logFile, 'utf8').length;
  return () => fs.readFileSync(logFile, 'utf8').slice(logged);
}

/** Waits for the rebuild's closing message, and returns it. */
async function rebuildFinished(): Promise<string> {
  let message = '';
  await until(
    async () => Boolean((message = (await workbench.notifications()).find((text) => /The search index is up to date: \d+ files/.test(text)) ?? '')),
    'indexing finishes',
    60_000,
  );
  return message;
}

/**
 * Presses "Ask GigaChat about these results" in the open results picker, waits for the reply (after
 * `waitForNotice`, a notice on the question containing it) and returns the question the model was sent.
 */
async function askAboutResults(waitForNotice?: string): Promise<string> {
  await emulator.resetCounts();
  const replies = await chatView.count('.turn-assistant');
  await workbench.quickPickButton('Ask GigaChat about these results');
  if (waitForNotice) await chatView.waitForText('.turn-user .turn-notice', waitForNotice);
  await chatView.waitForReply(replies);
  const [request] = (await emulator.requests()).filter((r) => r.endpoint === 'chat');
  return request.chat!.messages.at(-1)!.content;
}

describe('semantic search', function () {
  this.timeout(60_000);

  before(async function () {
    if (!hasOuterRunner()) this.skip();
    await ensureKey();
    for (const [path, text] of Object.entries(FILES)) await vscode.workspace.fs.writeFile(fixtureUri(path), Buffer.from(text));
  });

  it('asks before sending anything, saying how many files and chunks; declining sends nothing', async () => {
    await emulator.resetCounts();
    const done = vscode.commands.executeCommand('gigachat.semanticSearch', QUERY);
    const text = await workbench.dialogText();
    const shownWhileAsking = await workbench.notifications();
    await workbench.dialogButton('Cancel');
    assert.match(text, /Build a semantic search index of this workspace\?/);
    assert.deepEqual(
      shownWhileAsking.filter((notice) => /indexing|Looking for files/i.test(notice)),
      [],
      'nothing says the workspace is being indexed while the user is asked whether to index it',
    );
    // The fixture's 5 files plus whatever the other suites wrote (README, retry.ts, …): never the secret, ignored or dependency files.
    const files = Number(/sends (\d+) files/.exec(text)?.[1]);
    assert.ok(files >= 5 && files <= 11, `file count in: ${text}`);
    assert.match(text, /\d+ chunks/);
    assert.match(text, /about [\d,]+ tokens for the Embeddings model/, 'what indexing costs');
    await done;
    assert.equal(await emulator.count('embeddings'), 0);
  });

  it('after consent, indexes the workspace and puts the file that shares the query’s words first', async () => {
    await emulator.resetCounts();
    await startWithConsent('gigachat.semanticSearch', QUERY);
    const rows = await workbench.quickPickRows({ title: `results for “${QUERY}”` });
    await screenshotInBothThemes('search-results', workbench.screenshot);
    await workbench.closeQuickInput();
    assert.match(rows[0], /uploads\.ts:1/, `first result: ${rows[0]}`);
    assert.match(rows[0], /retryFailedUploads/, `the row previews the chunk: ${rows[0]}`);
    // How well each matches is said in words, never as a raw cosine.
    assert.match(rows[0], /strong match/, `the best result: ${rows[0]}`);
    for (const row of rows) {
      assert.match(row, /(strong|good|weak) match/, `each row says how well it matches: ${row}`);
      assert.doesNotMatch(row, /\b0\.\d\d\b/, `no raw score: ${row}`);
    }
    const sent = (await embeddedTexts()).join('\n');
    assert.ok(sent.includes('retryFailedUploads'), 'the source file was embedded');
    for (const forbidden of [SECRET, 'scratch notes', 'dependency: retry']) assert.ok(!sent.includes(forbidden), `"${forbidden}" was never sent`);
  });

  it('the status bar shows how many files are indexed', async () => {
    await until(async () => /GigaChat · \d+ files? indexed/.test(await workbench.statusBarText(STATUS_ITEM)), 'the status bar item, named GigaChat');
  });

  it('"Ask GigaChat about these results" sends the question with the excerpts to the chat', async () => {
    await openChat();
    await emulator.resetCounts();
    void vscode.commands.executeCommand('gigachat.semanticSearch', QUERY);
    await workbench.quickPickRows({ title: `results for “${QUERY}”` });
    const sent = await askAboutResults();
    assert.ok(sent.includes(`answer: ${QUERY}`), 'the question is asked');
    assert.match(sent, /search-fixture\/src\/uploads\.ts:1-5\n```/);
    assert.ok(sent.includes('retryFailedUploads(queue: string[])'), 'the excerpt itself is in the question');
  });

  it('"Ask GigaChat about these results" leaves out a result whose file went after the search, and says so', async () => {
    // A file of its own, never opened in an editor (VS Code would still hold an open one's text), and
    // not the first result, which the picker previews.
    const goneFile = fixtureUri('search-fixture/docs/retry-notes.md');
    await emulator.resetCounts();
    await vscode.workspace.fs.writeFile(goneFile, Buffer.from('Notes on uploads that failed, kept for later.\n'));
    await until(async () => (await embeddedTexts()).some((text) => text.includes('kept for later')), 'the new file indexed');
    void vscode.commands.executeCommand('gigachat.semanticSearch', QUERY);
    const rows = await workbench.quickPickRows({ title: `results for “${QUERY}”`, min: 2 });
    assert.ok(
      rows.slice(1).some((row) => row.includes('retry-notes.md')),
      `the file is among the results, not first: ${rows.join(' | ')}`,
    );
    fs.rmSync(goneFile.fsPath); // as a branch checkout would, with the results still open
    const sent = await askAboutResults('One result was left out: its file was deleted or moved');
    assert.match(sent, /search-fixture\/src\/uploads\.ts:1-5\n```/, 'the other results are asked about');
    assert.ok(!sent.includes('retry-notes.md'), 'the one that went is not');
  });

  it('a second search is answered from the index: only the query is embedded', async () => {
    await emulator.resetCounts();
    const rows = await searchRows('theme colours for dark buttons');
    assert.match(rows[0], /theme\.ts/);
    assert.deepEqual(await embeddedTexts(), ['theme colours for dark buttons']);
  });

  it('moving through the results previews each one in the editor', async () => {
    void vscode.commands.executeCommand('gigachat.semanticSearch', QUERY);
    const rows = await workbench.quickPickRows({ title: `results for “${QUERY}”`, min: 2 });
    const second = /^file-code\s+(\S+?):/.exec(rows[1])![1];
    await workbench.quickInputFocus();
    await workbench.press('ArrowDown');
    await until(() => vscode.window.visibleTextEditors.some((editor) => editor.document.uri.path.endsWith(`/${second}`)), `a preview of ${second}`);
    await workbench.closeQuickInput();
  });

  it('Enter opens the result with its lines selected', async () => {
    void vscode.commands.executeCommand('gigachat.semanticSearch', QUERY);
    const rows = await workbench.quickPickRows({ title: `results for “${QUERY}”` });
    const [, file, first, last] = /^file-code\s+(\S+?):(\d+)(?:–(\d+))?/.exec(rows[0])!;
    await workbench.quickInputFocus(); // the chat view, opened by an earlier test, may still hold the keyboard
    await workbench.press('Enter');
    const opened = () => vscode.window.activeTextEditor?.document.uri.path.endsWith(`/${file}`) === true;
    await until(() => opened() && !vscode.window.activeTextEditor!.selection.isEmpty, `${file} opens with a selection`);
    const { selection } = vscode.window.activeTextEditor!;
    assert.equal(selection.start.line + 1, Number(first), 'the selection starts at the result');
    assert.ok(selection.end.line + 1 >= Number(last ?? first), 'and covers its lines');
  });

  it('a method too long for one chunk is indexed in pieces under its class line and signature; a result cites only its own lines', async () => {
    // About 2,300 characters: more than a chunk (gigachat.search.chunkCharacters, 1,500 by default).
    const steps = Array.from({ length: 24 }, (_, i) =>
      i === 20
        ? '    if (stage === 20) await reconcileLedgerWithBankStatement(batch); // ledger reconciliation against the bank statement'
        : `    if (stage === ${i}) await runStage(batch, 'stage ${i}'); // step ${i} of the nightly export`,
    );
    const text = ['export class NightlyExport {', '  async runAll(batch: string[], stage: number): Promise<void> {', ...steps, '  }', '}', ''].join('\n');
    const file = fixtureUri('search-fixture/src/nightlyExport.ts');
    await vscode.workspace.fs.writeFile(file, Buffer.from(text));
    try {
      await vscode.commands.executeCommand('notifications.clearAll');
      await emulator.resetCounts();
      void vscode.commands.executeCommand('gigachat.rebuildSearchIndex');
      await rebuildFinished();
      // The rescan parsed only the new file: the others are cut as recorded when they were first indexed.
      const scans = (await productLog()).match(/\d+ files parsed, \d+ cut as recorded before/g) ?? [];
      const [, parsed, reused] = /(\d+) files parsed, (\d+) cut/.exec(scans[scans.length - 1] ?? '') ?? assert.fail('the scan logs what it parsed');
      assert.equal(Number(parsed), 1, scans[scans.length - 1]);
      assert.ok(Number(reused) >= 5, scans[scans.length - 1]);
      // The file's best result: of its pieces, the one that has the query's words.
      const rows = await searchRows('ledger reconciliation against the bank statement');
      const row = rows.find((candidate) => /nightlyExport\.ts/.test(candidate)) ?? '';
      const signature = 'export class NightlyExport {\n  async runAll(batch: string[], stage: number): Promise<void> {';
      const pieces = (await embeddedTexts()).filter((sent) => sent.includes('runStage') || sent.includes('reconcileLedger'));
      assert.ok(pieces.length >= 2, `the method was cut in pieces: ${pieces.length}`);
      assert.ok(
        pieces.every((sent) => sent.startsWith(signature)),
        `each piece is embedded under the class line and the signature: ${JSON.stringify(pieces.map((sent) => sent.slice(0, 80)))}`,
      );
      const [, first, last] = /nightlyExport\.ts:(\d+)(?:–(\d+))?/.exec(row) ?? assert.fail(`no result in the file: ${rows.join('\n')}`);
      const lines = text.split('\n');
      const cited = lines.slice(Number(first) - 1, Number(last ?? first)).join('\n');
      assert.ok(cited.includes('reconcileLedgerWithBankStatement'), `the result cites the line it matched: ${row}`);
      assert.ok(!cited.includes('export class NightlyExport'), `the repeated signature is not cited as the file's lines: ${row}`);
    } finally {
      await vscode.workspace.fs.delete(file);
    }
  });

  it('an edit saved to a file changes the results, embedding only the changed text', async () => {
    const database = fixtureUri('search-fixture/src/database.ts');
    const document = await vscode.workspace.openTextDocument(database);
    const editor = await vscode.window.showTextDocument(document);
    await editor.edit((edit) => edit.insert(new vscode.Position(document.lineCount, 0), '\n// nightly job: compress old invoices into the archive bucket\n'));
    await emulator.resetCounts();
    await document.save();
    await until(async () => (await emulator.count('embeddings')) > 0, 're-indexing after the save');
    const reEmbedded = await embeddedTexts();
    assert.ok(
      reEmbedded.every((text) => text.includes('invoices')),
      `only the edited chunk is embedded: ${JSON.stringify(reEmbedded)}`,
    );
    await until(async () => /database\.ts/.test((await searchRows('compress old invoices into the archive'))[0] ?? ''), 'the edited file comes first');
  });

  it('a file deleted in VS Code leaves the results', async () => {
    const edit = new vscode.WorkspaceEdit();
    edit.deleteFile(fixtureUri('search-fixture/src/uploads.ts'));
    assert.ok(await vscode.workspace.applyEdit(edit));
    await until(async () => !(await searchRows(QUERY)).some((row) => /uploads\.ts/.test(row)), 'the deleted file disappears from the results');
  });

  it('a 429 storm while indexing slows it down, and it still finishes with every chunk', async () => {
    const rebuild = async () => {
      await startFreshIndex();
      const message = await rebuildFinished();
      return { message, sent: new Set(await embeddedTexts()), requests: await emulator.count('embeddings') };
    };
    await vscode.workspace.getConfiguration('gigachat').update('search.batchSize', 1, vscode.ConfigurationTarget.Global);
    try {
      const calm = await rebuild();
      await emulator.inject({ kind: 'status', status: 429, retryAfterSeconds: 1 }, { endpoint: 'embeddings', times: 4 });
      const storm = await rebuild();
      assert.equal(storm.message, calm.message, 'the same files and chunks are indexed');
      assert.deepEqual([...storm.sent].sort(), [...calm.sent].sort(), 'every chunk was embedded: none lost');
      assert.ok(storm.requests >= calm.requests + 4, `the rate-limited requests were sent again (${storm.requests} against ${calm.requests})`);
    } finally {
      await emulator.clearFaults();
      await vscode.workspace.getConfiguration('gigachat').update('search.batchSize', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('cancelling indexing keeps what it finished, and the next search continues from there', async () => {
    const query = 'compress old invoices into the archive';
    await withSlowIndexing(1500, async () => {
      await startFreshIndex();
      await someFilesIndexed();
      await workbench.notificationButton('GigaChat: indexing the workspace', 'Cancel');
      let stopped = '';
      await until(
        async () => Boolean((stopped = (await workbench.notifications()).find((text) => /Indexing stopped with \d+ files? indexed/.test(text)) ?? '')),
        'the stopped message',
      );
      assert.ok(Number(/with (\d+) files?/.exec(stopped)![1]) >= 1, stopped);
      const sentBefore = await embeddedTexts();
      await emulator.setOptions({ latencyMs: 0 });
      await emulator.resetCounts();
      assert.match((await searchRows(query))[0], /database\.ts/);
      const sentAfter = (await embeddedTexts()).filter((text) => text !== query);
      const again = sentAfter.filter((text) => sentBefore.includes(text));
      assert.ok(
        again.every((text) => text === sentBefore.at(-1)) && again.length <= 1,
        `only the text cut off by the cancel is sent again, not: ${JSON.stringify(again)}`,
      );
      assert.ok(sentBefore.length - again.length >= 1, 'the finished texts are kept');
      assert.ok(sentAfter.length > 0, 'the next search goes on with the files not yet indexed');
    });
  });

  it('a search that waits on a running scan shows its own progress, and its Cancel stops the scan for both', async () => {
    const indexing = async () => (await workbench.notifications()).filter((text) => text.includes('GigaChat: indexing the workspace')).length;
    await withSlowIndexing(1000, async () => {
      await startFreshIndex();
      await someFilesIndexed();
      const search = vscode.commands.executeCommand('gigachat.semanticSearch', QUERY);
      await until(async () => (await indexing()) === 2, 'the search’s own progress beside the rebuild’s');
      // VS Code puts the newest toast first, and the driver clicks the first match: the search's.
      await workbench.notificationButton('GigaChat: indexing the workspace', 'Cancel');
      await search;
      await until(async () => (await indexing()) === 0, 'both progress notifications gone');
      const sent = (await embeddedTexts()).length;
      await new Promise((resolve) => setTimeout(resolve, 2500)); // more than two requests' time
      assert.equal((await embeddedTexts()).length, sent, 'nothing is sent after Cancel');
      const stopped = (await workbench.notifications()).filter((text) => /Indexing stopped with \d+ files? indexed/.test(text));
      assert.equal(stopped.length, 1, `one message for the one scan: ${stopped.join(' | ')}`);
      assert.doesNotMatch(await workbench.statusBarText(STATUS_ITEM), /Indexing/);
    });
  });

  it('a setting changed while indexing applies to that run: a folder it excludes is not in the results', async () => {
    const searchSettings = () => vscode.workspace.getConfiguration('search');
    try {
      await withSlowIndexing(1000, async () => {
        await startFreshIndex();
        await someFilesIndexed();
        await searchSettings().update('exclude', { '**/search-fixture/docs/**': true }, vscode.ConfigurationTarget.Global);
        await assertStillIndexing();
        await emulator.setOptions({ latencyMs: 0 });
        await rebuildFinished();
        // Searched before the batch settings are restored: restoring them would start a new scan.
        const rows = await searchRows('install the extension, set the proxy and trust the certificate');
        assert.ok(!rows.some((row) => /setup\.md/.test(row)), `the excluded docs/setup.md is not found: ${rows.join(' | ')}`);
      });
    } finally {
      await searchSettings().update('exclude', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('the embeddings model changed while indexing: the run finishes, then indexing again is asked about with its tokens, and after agreeing the new model answers', async () => {
    const requests = async () =>
      (await emulator.requests())
        .filter((request) => request.endpoint === 'embeddings')
        .map((request) => JSON.parse(request.body) as { model: string; input: string[] });
    const question = 'compress old invoices into the archive';
    try {
      let asked = '';
      await withSlowIndexing(1000, async () => {
        await startFreshIndex();
        await someFilesIndexed();
        await settings().update('embeddingsModel', 'EmbeddingsGigaR', vscode.ConfigurationTarget.Global);
        await assertStillIndexing();
        await emulator.setOptions({ latencyMs: 0 });
        // The rebuild finishes its run, then asks before sending anything to the new model: declined.
        asked = await workbench.dialogText();
        await workbench.dialogButton('Cancel');
      });
      assert.match(asked, /Index this workspace again with the EmbeddingsGigaR model\?/);
      assert.match(asked, /built with the Embeddings model/);
      const [chunks, tokens] = [/\(([\d,]+) chunks?/, /about ([\d,]+) tokens?\)/].map((pattern) => Number(pattern.exec(asked)?.[1].replaceAll(',', '')));
      assert.ok(chunks > 0 && tokens >= chunks, `the chunks and the tokens they cost: ${asked}`);
      assert.ok(
        (await requests()).every((request) => request.model === 'Embeddings'),
        'nothing was sent to the new model before the user agreed',
      );

      await emulator.resetCounts();
      const again = await startWithConsent('gigachat.semanticSearch', question);
      assert.match(again, /Index this workspace again with the EmbeddingsGigaR model\?/, 'a search asks the same, until the user agrees');
      const rows = await workbench.quickPickRows({ title: `results for “${question}”` });
      await workbench.closeQuickInput();
      assert.match(rows[0] ?? '', /database\.ts/, 'the new model’s index answers');
      const sent = await requests();
      assert.ok(sent.length > 1 && sent.every((request) => request.model === 'EmbeddingsGigaR'), 'only the new model is asked');
      const instruction = 'Дано предложение, необходимо найти его парафраз \nпредложение: ';
      const texts = sent.flatMap((request) => request.input);
      assert.deepEqual(
        texts.filter((text) => text.startsWith(instruction)),
        [instruction + question],
        'the query, and only the query, goes after the model’s instruction',
      );
      assert.ok(
        !(await workbench.notifications()).some((text) => /could not|failed|error/i.test(text)),
        `no failure: ${(await workbench.notifications()).join(' | ')}`,
      );
    } finally {
      await settings().update('embeddingsModel', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('a file saved while indexing is indexed as saved, once the scan ends', async () => {
    // Each file's own words, to tell which one the scan has already sent.
    const words: Record<string, string> = {
      'search-fixture/src/uploadQueue.ts': 'uploads waiting in the queue',
      'search-fixture/src/theme.ts': 'theme colours for buttons',
      'search-fixture/src/database.ts': 'schema migration',
      'search-fixture/docs/setup.md': 'trust the certificate in settings',
    };
    let sentFile = '';
    // Slow enough that the scan is still sending when the save's event arrives, on a fast machine too.
    await withSlowIndexing(3000, async () => {
      await startFreshIndex();
      await until(
        async () => {
          const sent = (await embeddedTexts()).join('\n');
          sentFile = Object.keys(words).find((file) => sent.includes(words[file])) ?? '';
          return sentFile !== '';
        },
        'a fixture file sent',
        30_000,
      );
      // The scan has read this file already: only the save tells the index about the new text.
      const document = await vscode.workspace.openTextDocument(fixtureUri(sentFile));
      const editor = await vscode.window.showTextDocument(document);
      await editor.edit((edit) => edit.insert(new vscode.Position(document.lineCount, 0), '\n// violet gradient behind the login banner\n'));
      await document.save();
      await new Promise((resolve) => setTimeout(resolve, 1000)); // the save's event settles (300 ms) while the scan runs
      await assertStillIndexing();
      await emulator.setOptions({ latencyMs: 0 });
      await rebuildFinished();
    });
    await until(async () => (await embeddedTexts()).some((text) => text.includes('violet gradient')), 'the saved text is embedded');
    assert.ok((await searchRows('violet gradient behind the login banner'))[0]?.includes(path.posix.basename(sentFile)), `${sentFile} comes first`);
  });

  it('deleting a .gitignore brings what it excluded into the results', async () => {
    const gitignore = fixtureUri('search-fixture/.gitignore');
    await searchRows(QUERY); // the index is current: only the deletion can make it scan again
    const edit = new vscode.WorkspaceEdit();
    edit.deleteFile(gitignore);
    assert.ok(await vscode.workspace.applyEdit(edit));
    try {
      await until(
        async () => /notes\.ts/.test((await searchRows('ignored retry failed uploads scratch notes'))[0] ?? ''),
        'the file the .gitignore excluded is found',
        30_000,
      );
    } finally {
      await vscode.workspace.fs.writeFile(gitignore, Buffer.from(FILES['search-fixture/.gitignore']));
    }
  });

  it('the user’s git excludes file is honoured, and a change to it applies at the next search', async () => {
    const gitHome = fs.mkdtempSync(path.join(os.tmpdir(), 'gigachat-git-'));
    const excludesFile = path.join(gitHome, 'ignore');
    fs.writeFileSync(path.join(gitHome, 'config'), `[core]\n\texcludesFile = ${excludesFile}\n`);
    fs.writeFileSync(excludesFile, '*.bak\n');
    const diary = fixtureUri('search-fixture/diary.md');
    const diaryQuery = 'otters in the harbour held hands at dawn';
    const previous = process.env.GIT_CONFIG_GLOBAL;
    process.env.GIT_CONFIG_GLOBAL = path.join(gitHome, 'config'); // the product's extension host shares this process
    try {
      await vscode.workspace.fs.writeFile(diary, Buffer.from('Private diary: the otters in the harbour held hands at dawn.\n'));
      await vscode.workspace.fs.writeFile(fixtureUri('search-fixture/diary.md.bak'), Buffer.from('Backup: the otters in the harbour held hands at dawn.\n'));
      await vscode.commands.executeCommand('notifications.clearAll');
      await emulator.resetCounts();
      void vscode.commands.executeCommand('gigachat.rebuildSearchIndex');
      await rebuildFinished();
      assert.ok(!(await embeddedTexts()).some((text) => text.includes('Backup: the otters')), 'the file the excludes file names was never sent');
      assert.match((await searchRows(diaryQuery))[0] ?? '', /diary\.md/, 'the diary is found while nothing excludes it');

      // The index is current (changes the previous test made have settled): only the excludes file can make it scan again.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await searchRows(diaryQuery);
      const newLog = await logFromNow();
      fs.writeFileSync(excludesFile, '*.bak\ndiary.md\n'); // outside the workspace: only the product's own watcher sees it
      await until(() => newLog().includes(`full scan due (${excludesFile} changed)`), 'the change to the excludes file noticed');
      assert.ok(!(await searchRows(diaryQuery)).some((row) => /diary\.md/.test(row)), 'the diary left the results');
    } finally {
      if (previous === undefined) delete process.env.GIT_CONFIG_GLOBAL;
      else process.env.GIT_CONFIG_GLOBAL = previous;
      await vscode.workspace.fs.delete(diary).then(undefined, () => undefined);
      await vscode.workspace.fs.delete(fixtureUri('search-fixture/diary.md.bak')).then(undefined, () => undefined);
      fs.rmSync(gitHome, { recursive: true, force: true });
    }
  });

  it('a folder renamed outside VS Code stays searchable under its new name', async () => {
    const fixture = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'search-fixture');
    // The index is current (a change the previous test made has settled): only the rename can make it scan again.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await searchRows(QUERY);
    fs.renameSync(path.join(fixture, 'docs'), path.join(fixture, 'manual'));
    try {
      await until(
        async () => /search-fixture\/manual/.test((await searchRows('install the extension, set the proxy and trust the certificate'))[0] ?? ''),
        'setup.md found in manual/',
        30_000,
      );
    } finally {
      fs.renameSync(path.join(fixture, 'manual'), path.join(fixture, 'docs'));
    }
  });

  it('a folder of ignored files appearing (build output) does not make the next search scan again', async () => {
    const fixture = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'search-fixture');
    const newLog = await logFromNow();
    // The index is current (the previous test's rename has settled): a folder noticed now is logged.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await searchRows(QUERY);
    const built = path.join(fixture, 'scratch', 'build-output'); // scratch/ is in the .gitignore
    const notes = path.join(fixture, 'notes');
    try {
      fs.mkdirSync(built);
      fs.writeFileSync(path.join(built, 'bundle.js'), '// built\n');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      // A folder with files to index, made after it, is noticed: the events have arrived by then.
      fs.mkdirSync(notes);
      fs.writeFileSync(path.join(notes, 'otters.md'), 'Otters hold hands while they sleep.\n');
      // The file watcher reports late when the machine is busy: as long as the other watcher waits in this suite.
      await until(() => /notes\/ appeared/.test(newLog()), 'the folder with files to index noticed', 30_000);
      assert.doesNotMatch(newLog(), /build-output\/ appeared/);
    } finally {
      fs.rmSync(built, { recursive: true, force: true });
      fs.rmSync(notes, { recursive: true, force: true });
    }
  });

  it('hundreds of files changed at once (a branch checkout) make the next search scan once, instead of updating each', async () => {
    const checkout = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'search-fixture', 'checkout');
    const writePages = (when: string) => {
      for (let i = 0; i < 300; i++) fs.writeFileSync(path.join(checkout, `page${i}.md`), `Pelican ledger, page ${i}: herring counted at ${when}.\n`);
    };
    // The index is current (the previous test's folders have settled): the new folder is news.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await searchRows(QUERY);
    try {
      // The branch's files are indexed, as they would be after working on it.
      const arrived = await logFromNow();
      fs.mkdirSync(checkout);
      writePages('dawn');
      await until(() => /full scan due/.test(arrived()), 'the new folder noticed');
      await searchRows(QUERY);
      // Checking out another branch rewrites them all.
      const newLog = await logFromNow();
      writePages('dusk');
      await until(() => /full scan due \(\d+ files changed at once\)/.test(newLog()), 'the checkout noticed as one change');
      const rows = await searchRows('pelican ledger herring counted at dusk');
      assert.match(rows[0] ?? '', /page\d+\.md.*search-fixture\/checkout/s, 'the next search scanned and found the new text');
      assert.equal(newLog().match(/files selected/g)?.length, 1, 'one scan for the checkout');
      // On a loaded machine the watcher may hand over the burst's first events alone, settled one
      // by one before the rest arrive; never the whole checkout file by file.
      const single = newLog().match(/page\d+\.md re-indexed/g)?.length ?? 0;
      assert.ok(single < 100, `${single} of the 300 files updated on their own`);
    } finally {
      fs.rmSync(checkout, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 1500)); // the deletions reach the index before the next test
    }
  });

  it('Clear Search Index while indexing stops it: nothing more is sent', async () => {
    await withSlowIndexing(1000, async () => {
      const question = await startFreshIndex();
      const chunks = Number(/\((\d+) chunks/.exec(question)?.[1]);
      await someFilesIndexed();
      await vscode.commands.executeCommand('gigachat.clearSearchIndex');
      const sent = (await embeddedTexts()).length;
      assert.ok(sent < chunks, `indexing stopped before its end: ${sent} of ${chunks} chunks sent`);
      await new Promise((resolve) => setTimeout(resolve, 2500)); // more than two requests' time
      assert.equal((await embeddedTexts()).length, sent, 'nothing is sent after Clear');
      assert.equal(await workbench.statusBarText(STATUS_ITEM), '', 'the status bar no longer counts files');
    });
  });

  it('a search that found nothing to send is no agreement: a file created later is not sent until the user agrees', async () => {
    const searchSettings = () => vscode.workspace.getConfiguration('search');
    const created = fixtureUri('xylophone.py');
    await vscode.commands.executeCommand('gigachat.clearSearchIndex');
    // Every file is excluded but those whose name starts with an x: there is none yet.
    await searchSettings().update('exclude', { '**/[!x]*': true }, vscode.ConfigurationTarget.Global);
    try {
      await emulator.resetCounts();
      void vscode.commands.executeCommand('gigachat.semanticSearch', QUERY);
      await until(async () => (await emulator.count('embeddings')) >= 1, 'the search, with nothing to ask about');
      await workbench.press('Escape');
      await vscode.workspace.fs.writeFile(created, Buffer.from('# xylophone tuning notes, never agreed to\n'));
      await new Promise((resolve) => setTimeout(resolve, 2500)); // time for the watcher to act on it
      assert.ok(!(await embeddedTexts()).some((text) => text.includes('xylophone')), 'the new file was not sent');
      const { question, done } = await answerIndexingQuestion('Cancel', 'gigachat.semanticSearch', QUERY);
      assert.match(question, /Build a semantic search index/, 'the next search asks first');
      await done;
      assert.ok(!(await embeddedTexts()).some((text) => text.includes('xylophone')), 'declined: still not sent');
    } finally {
      await searchSettings().update('exclude', undefined, vscode.ConfigurationTarget.Global);
      await vscode.workspace.fs.delete(created);
    }
  });

  it('Clear Search Index deletes it, and the next search asks again before sending', async () => {
    await vscode.commands.executeCommand('gigachat.clearSearchIndex');
    await emulator.resetCounts();
    const { question, done } = await answerIndexingQuestion('Cancel', 'gigachat.semanticSearch', QUERY);
    assert.match(question, /Build a semantic search index/);
    await done;
    assert.equal(await emulator.count('embeddings'), 0);
  });

  it('symbolic links are not followed: what they point to outside the workspace is never counted, listed, sent or re-indexed on save', async () => {
    const links = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'search-fixture', 'links');
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'gigachat-outside-'));
    const token = 'marmalade-token-of-the-user-outside-the-workspace';
    // About the query, so that sent, it would come first.
    fs.writeFileSync(path.join(outside, 'hosts.yml'), `github.com:\n  oauth_token: ${token} # where we retry failed uploads\n`);
    fs.mkdirSync(path.join(outside, 'home'));
    fs.writeFileSync(path.join(outside, 'home', 'bashrc.sh'), `export UPLOAD_TOKEN=${token} # retry failed uploads\n`);
    const asked = async (answer: 'Cancel' | 'Show Files') => {
      const { question } = await answerIndexingQuestion(answer, 'gigachat.semanticSearch', QUERY);
      return Number(/sends (\d+) files/.exec(question)?.[1]);
    };
    try {
      const withoutLinks = await asked('Cancel'); // the previous test cleared the index: asked again
      fs.mkdirSync(links);
      fs.symlinkSync(path.join(outside, 'hosts.yml'), path.join(links, 'notes.md'));
      fs.symlinkSync(path.join(outside, 'home'), path.join(links, 'home'), 'dir');
      fs.symlinkSync('../.env', path.join(links, 'settings.md'));
      fs.symlinkSync('../src/theme.ts', path.join(links, 'theme-alias.ts'));
      fs.symlinkSync('missing.md', path.join(links, 'dangling.md'));
      const newLog = await logFromNow();
      await emulator.resetCounts();
      const withLinks = await asked('Show Files');
      const listTab = () =>
        vscode.window.tabGroups.all
          .flatMap((group) => group.tabs)
          .find((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.scheme === 'gigachat-files');
      await until(() => listTab() !== undefined, 'the list of files');
      const list = vscode.workspace.textDocuments.find((document) => document.uri.toString() === (listTab()!.input as vscode.TabInputText).uri.toString())!;
      const listed = list.getText();
      assert.match(listed, /^# Files GigaChat would index/);
      // Read-only, never dirty: closing it asks nothing (an untitled list asked to be saved).
      assert.equal(list.isDirty, false);
      await vscode.window.tabGroups.close(listTab()!);
      await until(() => listTab() === undefined, 'the list closed without a question');
      await workbench.notificationButton('Build a semantic search index', 'Send and Index');
      const rows = await workbench.quickPickRows({ title: `results for “${QUERY}”`, timeoutMs: 60_000 });
      await workbench.closeQuickInput();
      assert.equal(withLinks, withoutLinks, 'the links add no file to the count');
      assert.match(listed, /search-fixture\/src\/theme\.ts/);
      assert.doesNotMatch(listed, /search-fixture\/links\//, 'no file through a link is listed');
      assert.ok(!rows.some((row) => row.includes('links/')), `no result through a link: ${rows.join(' | ')}`);
      const sent = (await embeddedTexts()).join('\n');
      assert.ok(sent.includes('palette'), 'the file a link within the workspace points to is indexed');
      for (const forbidden of [token, SECRET]) assert.ok(!sent.includes(forbidden), `"${forbidden}" was never sent`);
      await until(() => /symbolic links left out/.test(newLog()), 'the links left out logged');
      assert.match(newLog(), /2 leading outside the workspace folder: search-fixture\/links\/home, search-fixture\/links\/notes\.md;/);

      // Saved through a link (to a file, below a link to a folder): re-indexed on its own, it must not be sent either.
      for (const file of ['home/bashrc.sh', 'notes.md']) {
        const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(links, file)));
        const editor = await vscode.window.showTextDocument(document);
        await editor.edit((edit) => edit.insert(new vscode.Position(document.lineCount, 0), `\n# saved ${token}\n`));
        await document.save();
        await until(() => newLog().includes(`search-fixture/links/${file} left out, unread`), `${file} left out when saved`);
      }
      assert.ok(!(await embeddedTexts()).some((text) => text.includes(token)), 'nothing saved through a link was sent');
    } finally {
      const opened = vscode.window.tabGroups.all
        .flatMap((group) => group.tabs)
        .filter((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.fsPath.startsWith(links));
      await vscode.window.tabGroups.close(opened);
      await vscode.commands.executeCommand('notifications.clearAll'); // a question left open would hold up the clearing
      fs.rmSync(links, { recursive: true, force: true });
      fs.rmSync(outside, { recursive: true, force: true });
      await vscode.commands.executeCommand('gigachat.clearSearchIndex'); // the next test expects to be asked
    }
  });

  it('hostile files (invalid UTF-8, a 200 KB line, a symlink loop, odd names) are indexed or skipped, and indexing completes', async () => {
    const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const hostile = path.join(folder, 'search-fixture', 'hostile');
    fs.mkdirSync(hostile, { recursive: true });
    fs.writeFileSync(path.join(hostile, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x6c, 0x61, 0x74, 0x69, 0x6e, 0x0a])); // "café latin" in Latin-1
    fs.writeFileSync(path.join(hostile, 'one-long-line.txt'), `${'zebra quokka '.repeat(16_000)}\n`); // 208 KB on one line
    fs.writeFileSync(path.join(hostile, 'имя с пробелами [1] #2.md'), 'Лемур и капибара живут в этом файле.\n');
    fs.symlinkSync('..', path.join(hostile, 'loop'), 'dir');
    await emulator.resetCounts();
    await startWithConsent('gigachat.semanticSearch', 'zebra quokka');
    const rows = await workbench.quickPickRows({ title: 'results for “zebra quokka”', timeoutMs: 60_000 });
    await workbench.closeQuickInput();
    assert.match(rows[0], /one-long-line\.txt/, 'the long line was split into chunks, not dropped');
    assert.match((await searchRows('лемур капибара'))[0], /имя с пробелами/);
    const sent = (await embeddedTexts()).join('\n');
    assert.ok(!/caf.? latin/.test(sent) && !sent.includes('\uFFFD'), 'the file that is not UTF-8 was skipped, not sent garbled');
  });

  it('"Ask GigaChat about these results" quotes a piece of a one-line file of almost a megabyte, not the whole line', async () => {
    const file = fixtureUri('search-fixture/data/catalog.json');
    // Just under gigachat.search.maxFileSizeKB (1 MB), so it is indexed.
    const line = JSON.stringify(Array.from({ length: 18_000 }, (_, i) => ({ sku: `marmot-${i}`, shelf: 'alpine marmot burrow' })));
    assert.ok(line.length > 800_000 && line.length < 1_000_000, `a one-line file of ${line.length} characters`);
    try {
      await vscode.workspace.fs.writeFile(file, Buffer.from(line));
      await vscode.commands.executeCommand('gigachat.clearSearchIndex'); // so the search indexes it now, whatever ran before
      await startWithConsent('gigachat.semanticSearch', 'alpine marmot burrow');
      const rows = await workbench.quickPickRows({ title: 'results for “alpine marmot burrow”', timeoutMs: 60_000 });
      assert.match(rows[0], /catalog\.json/);
      await openChat();
      const sent = await askAboutResults('too long to quote whole');
      assert.match(sent, /catalog\.json:1\n```/);
      assert.ok(sent.length < 16_000, `the question is ${sent.length} characters long`);
    } finally {
      await vscode.workspace.fs.delete(file);
    }
  });

  describe('codebase context in the chat', () => {
    const LAST_REPLY = '.turn-assistant:last-child';
    /** A citation in the reply (the emulator echoes the question, whose passages are named first). */
    const CITED = `${LAST_REPLY} .file-link`;

    before(async () => {
      // An earlier test deletes it.
      const uploads = 'search-fixture/src/uploads.ts';
      await vscode.workspace.fs.writeFile(fixtureUri(uploads), Buffer.from(FILES[uploads]));
    });

    /** Sends `text` in a new chat, with the input's codebase button pressed unless the text says #codebase. */
    async function askWithCodebase(text: string): Promise<void> {
      await openChat();
      await chatView.newChat();
      if (!text.includes('#codebase')) await chatView.click('.codebase-toggle');
      await chatView.type(text);
      assert.deepEqual(await chatView.attributes('.codebase-toggle', 'aria-pressed'), ['true'], 'the button shows codebase context on');
      await chatView.press('Enter');
    }

    /** What the model was last sent as the question. */
    async function lastQuestionSent(): Promise<string> {
      const request = (await emulator.requests()).filter((r) => r.endpoint === 'chat').at(-1);
      return request!.chat!.messages.at(-1)!.content;
    }

    it('before the user agreed to indexing nothing is indexed or sent; the reply’s button asks, indexes and answers from the code, citing it', async function () {
      this.timeout(150_000); // the whole workspace is indexed: in a full run, the files of every suite before
      await vscode.commands.executeCommand('gigachat.clearSearchIndex');
      await emulator.resetCounts();
      await askWithCodebase(QUERY);
      await chatView.waitFor(`${LAST_REPLY} [data-error-action="allowIndexing"]`);
      assert.match((await chatView.texts(LAST_REPLY))[0], /indexing has not been allowed in this workspace yet, so nothing was sent/);
      assert.equal(await emulator.count('embeddings'), 0, 'nothing was embedded');
      assert.equal(await emulator.count('chat'), 0, 'nothing was asked');
      assert.deepEqual(await chatView.attributes('.codebase-toggle', 'aria-pressed'), ['false'], 'the button is for one message');

      await chatView.click(`${LAST_REPLY} [data-error-action="allowIndexing"]`);
      assert.match(await workbench.dialogText(), /Build a semantic search index of this workspace\?/, 'the search command’s question');
      await workbench.dialogButton('Send and Index');
      await chatView.waitFor(CITED, 'visible', 120_000);
      await chatView.waitForReply(0);
      const sent = await lastQuestionSent();
      assert.ok(sent.includes('retryFailedUploads(queue: string[])'), `the passage itself went with the question: ${sent.slice(0, 600)}`);
      assert.ok(sent.endsWith(QUERY), 'the question comes last');
      for (const forbidden of [SECRET, 'scratch notes', 'dependency: retry']) assert.ok(!sent.includes(forbidden), `"${forbidden}" was never sent`);
      const sources = await chatView.texts('.turn-user .source-chip');
      assert.ok(
        sources.some((source) => /uploads\.ts:1-5/.test(source)),
        `the question shows its sources: ${sources.join(', ')}`,
      );
      await workbench.screenshot('codebase-context');

      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      const [cited] = await chatView.textContents(CITED);
      const [, file, first, last = first] = /^(.+):(\d+)(?:-(\d+))?$/.exec(cited)!;
      await chatView.click(CITED);
      const opened = () => vscode.window.activeTextEditor?.document.uri.path.endsWith(`/${file}`) === true;
      await until(() => opened() && !vscode.window.activeTextEditor!.selection.isEmpty, `${cited} opens with its lines selected`);
      const { selection } = vscode.window.activeTextEditor!;
      assert.deepEqual([selection.start.line + 1, selection.end.line + 1], [Number(first), Number(last)], `the lines of ${cited}`);
    });

    it('a passage longer than the model leaves room for is cut to its first lines, and is cited by the lines sent', async () => {
      const file = fixtureUri('search-fixture/docs/zebras.md');
      const lines = Array.from({ length: 600 }, (_, i) => `Zebra herds migrate across the plains in search of fresh grass, line ${i + 1}.`);
      try {
        await vscode.workspace.fs.writeFile(file, Buffer.from(lines.join('\n') + '\n'));
        await until(async () => (await searchRows('zebra herds migrate')).some((row) => /zebras\.md/.test(row)), 'the new file indexed', 30_000);
        await emulator.resetCounts();
        await askWithCodebase('#codebase where do zebra herds migrate?');
        await chatView.waitForReply(0);
        const [source] = await chatView.attributes('.turn-user .source-chip', 'title');
        const [, last] = /zebras\.md:1-(\d+)$/.exec(source ?? '') ?? [];
        assert.ok(Number(last) > 1 && Number(last) < 600, `cut, and cited by its lines: ${source}`);
        const sent = await lastQuestionSent();
        assert.ok(sent.includes(`line ${last}.`) && !sent.includes(`line ${Number(last) + 1}.`), `the lines 1–${last} were sent, no more`);
      } finally {
        await vscode.workspace.fs.delete(file);
      }
    });

    it('the view cannot open a file outside the workspace: the user is told it is not a file of the workspace', async () => {
      const outside = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, '..', 'outside-the-workspace.txt');
      await vscode.workspace.fs.writeFile(outside, Buffer.from('not for the chat\n'));
      try {
        await openChat();
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
        await vscode.commands.executeCommand('notifications.clearAll');
        const escapes = ['../outside-the-workspace.txt', '..\\outside-the-workspace.txt'];
        await chatView.postRaw([...escapes, outside.fsPath].map((file) => ({ type: 'openFile', file, first: 1, last: 1 })));
        await until(async () => {
          const warnings = (await workbench.notifications()).filter((text) => /is not a file of this workspace/.test(text));
          return escapes.every((escape) => warnings.some((warning) => warning.startsWith(escape)));
        }, 'a warning for each path that climbs out');
        assert.equal(vscode.window.activeTextEditor, undefined, 'nothing was opened');
      } finally {
        await vscode.workspace.fs.delete(outside);
      }
    });

    it('while the workspace is still being indexed, #codebase answers from what is indexed and says so', async () => {
      await withSlowIndexing(600, async () => {
        try {
          await startFreshIndex();
          await someFilesIndexed();
          await askWithCodebase(`#codebase ${QUERY}`);
          // Said only when the search ran while the index was being built.
          await chatView.waitForText('.turn-user .turn-notice', 'still being indexed', 30_000);
          await chatView.waitForReply(0);
          assert.match(await lastQuestionSent(), /Answer using these passages of my workspace/);
        } finally {
          await vscode.commands.executeCommand('gigachat.clearSearchIndex');
        }
      });
    });
  });
});
