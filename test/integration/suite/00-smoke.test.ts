import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { answerIndexingQuestion, emulator, firstRunShown, setKeyThroughCommand, until, workbench } from '../drivers';
import { callOuter, hasOuterRunner } from '../outer';

const EXTENSION_ID = 'gigachat-vscode.gigachat';

// The first thing the suite does: the walkthrough opens as a preview, which the next file opened replaces.
describe('first run', function () {
  before(function () {
    if (!hasOuterRunner() || vscode.env.language === 'ru') this.skip();
  });

  it('the first start, with no key, opens the walkthrough and offers a key in a notification', async function () {
    this.timeout(60_000); // the walkthrough comes with the product's activation, which may still be on its way
    await firstRunShown({
      walkthrough: 'Get Started with GigaChat',
      page: 'Getting the authorization key',
      notice: /GigaChat answers with your own authorization key/,
      buttons: ['Set Key', 'Get a Key', "Don't Show Again"],
    });
    const workbenchSettings = vscode.workspace.getConfiguration('workbench');
    await workbenchSettings.update('colorTheme', 'Default Dark Modern', vscode.ConfigurationTarget.Global);
    try {
      await until(async () => (await workbench.attributes('.monaco-workbench', 'class')).some((c) => c?.includes('vs-dark')), 'the dark theme');
      await workbench.screenshot('first-run-en-dark');
    } finally {
      await workbenchSettings.update('colorTheme', undefined, vscode.ConfigurationTarget.Global);
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('notifications.hideList');
  });
});

// Runs in a window of its own, in Russian on a light theme, with a fresh profile and no key
// (test/harness/runIntegration.js, the Russian first-run phase); in the main window it skips itself.
describe('first run in Russian', function () {
  before(function () {
    if (!hasOuterRunner() || vscode.env.language !== 'ru') this.skip();
  });

  it('the walkthrough, its pages and the notice offering a key speak Russian', async function () {
    this.timeout(60_000); // the walkthrough comes with the product's activation, which may still be on its way
    await firstRunShown({
      walkthrough: 'Начало работы с GigaChat',
      page: 'Как получить ключ авторизации',
      notice: /GigaChat отвечает по вашему собственному ключу авторизации/,
      buttons: ['Задать ключ', 'Получить ключ', 'Больше не показывать'],
    });
    await workbench.screenshot('first-run-ru-light');
  });

  it("GigaChat's settings are grouped and described in Russian", async () => {
    await vscode.commands.executeCommand('workbench.action.openSettings', '@ext:gigachat-vscode.gigachat');
    let groups = '';
    await until(
      async () => /Подключение/.test((groups = (await workbench.texts('.settings-toc-container .monaco-list-row')).join(' | '))),
      'the groups, in Russian',
    );
    for (const group of ['Чат', 'Подсказки', 'Коммиты', 'Семантический поиск']) assert.ok(groups.includes(group), `${group} in: ${groups}`);
    await workbench.screenshot('settings-ru-light');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('GigaChat: Help opens its Russian pages in the Markdown preview', async () => {
    await vscode.commands.executeCommand('gigachat.help', 'key');
    await until(() => previewOpen(/key\.ru\.md/), 'the Russian page on the key, in the preview');
    const { inView, headings } = await workbench.headingInView('Ключ авторизации');
    assert.ok(inView, `the page's heading; headings seen: ${headings.join(' | ')}`);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('semantic search asks, indexes and ranks in Russian, relevance in words', async function () {
    this.timeout(60_000);
    await setKeyThroughCommand((await emulator.info()).key);
    const folder = vscode.workspace.workspaceFolders![0].uri;
    await vscode.workspace.fs.writeFile(
      vscode.Uri.joinPath(folder, 'отчёты.ts'),
      Buffer.from('// Выгрузка отчётов в CSV\nexport function выгрузитьОтчёт() {}\n'),
    );
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder, 'погода.ts'), Buffer.from('// Прогноз погоды на завтра\nexport const прогноз = 1;\n'));
    const query = 'выгрузка отчётов';
    const { question, done } = await answerIndexingQuestion('Отправить и проиндексировать', 'gigachat.semanticSearch', query);
    assert.match(question, /Построить индекс семантического поиска/);
    const [, count, noun] = /отправит в сервис GigaChat (\d+) (файл\S*)/.exec(question) ?? [];
    const n = Number(count);
    const form = n % 10 === 1 && n % 100 !== 11 ? 'файл' : [2, 3, 4].includes(n % 10) && ![12, 13, 14].includes(n % 100) ? 'файла' : 'файлов';
    assert.equal(noun, form, `the file count agrees with its noun in: ${question}`);
    const rows = await workbench.quickPickRows({ title: `по запросу «${query}»` });
    await workbench.screenshot('search-ru-light');
    await workbench.closeQuickInput();
    await done;
    assert.match(rows[0], /отчёты\.ts/, `first result: ${rows[0]}`);
    assert.ok(
      rows.every((row) => !/\b0\.\d\d\b/.test(row)),
      `relevance in words, not a cosine: ${rows.join(' | ')}`,
    );
    assert.ok(
      rows.some((row) => /совпадение/.test(row)),
      `relevance in Russian words: ${rows.join(' | ')}`,
    );
  });
});

/** Whether a Markdown preview of the file `name` is open. */
function previewOpen(name: RegExp): boolean {
  return vscode.window.tabGroups.all.some((group) => group.tabs.some((tab) => name.test(tab.label) && tab.input instanceof vscode.TabInputWebview));
}

describe('smoke', () => {
  it('runs in a real VS Code', async () => {
    assert.match(vscode.version, /^1\.\d+\.\d+/);
    // A real workbench registers its built-in commands; a stub of the API would not.
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('workbench.action.files.newUntitledFile'), 'built-in commands are missing');
  });

  it('GigaChat: Help lists a page per feature and opens the one asked for', async () => {
    const picking = vscode.commands.executeCommand('gigachat.help');
    const rows = await workbench.quickPickRows({ title: 'GigaChat Help', min: 9 });
    assert.equal(rows.length, 9, rows.join(' | '));
    assert.ok(
      rows.some((row) => /Semantic search and codebase context/.test(row)),
      rows.join(' | '),
    );
    await workbench.closeQuickInput();
    await picking;
    await vscode.commands.executeCommand('gigachat.help', 'search');
    await until(() => previewOpen(/search\.md/), 'the page on semantic search, in the preview');
    const { inView, headings } = await workbench.headingInView('Semantic search and codebase context');
    assert.ok(inView, `the page's heading; headings seen: ${headings.join(' | ')}`);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('offers Explain as a lightbulb action from the start, before any GigaChat command or view is used', async () => {
    const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'smoke.ts');
    await vscode.workspace.fs.writeFile(uri, Buffer.from('const a = 1;\nconst b = a + 1;\n'));
    const editor = await vscode.window.showTextDocument(uri);
    // A request the workbench cancels (while the window is still settling) is asked again.
    const actions = () =>
      Promise.resolve(vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, new vscode.Range(0, 0, 1, 5))).catch(
        () => [],
      );
    try {
      // Activation comes once the window has started, perhaps just after this suite did.
      await until(
        async () => (await actions()).some((action) => action.command?.command === 'gigachat.explainSelection'),
        'the Explain action is offered',
        10_000,
      );
    } finally {
      // Its own tab, not the active one: the walkthrough the first start opens may have come in front since.
      const tab = vscode.window.tabGroups.all
        .flatMap((group) => group.tabs)
        .find((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === editor.document.uri.toString());
      if (tab) await vscode.window.tabGroups.close(tab);
      await vscode.workspace.fs.delete(uri);
    }
  });

  it('has the product extension installed, and it activates', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not installed`);
    assert.equal(extension.packageJSON.publisher, 'gigachat-vscode');
    await extension.activate();
    assert.equal(extension.isActive, true);
  });

  it('can reach the outer runner that drives the browser', async function () {
    if (!hasOuterRunner()) this.skip();
    const answer = await callOuter<{ pong: boolean; url: string }>('ping');
    assert.equal(answer.pong, true);
    assert.match(answer.url, /^http:\/\/127\.0\.0\.1:\d+\//);
  });
});
