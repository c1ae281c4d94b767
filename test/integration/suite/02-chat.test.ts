import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { chatView, emulator, ensureKey, productStorage, until, workbench } from '../drivers';
import { callOuter, hasOuterRunner } from '../outer';

describe('chat view', function () {
  before(async function () {
    if (!hasOuterRunner()) this.skip();
    await ensureKey();
    await chatView.newChat();
  });

  it('a question typed and sent with Enter streams its answer into the view', async () => {
    await emulator.resetCounts();
    await chatView.ask('What does the retry helper do?');
    await chatView.waitForText('.turn-user', 'What does the retry helper do?');
    await chatView.waitForText('.turn-assistant .turn-body', 'You asked: "What does the retry helper do?"');
    const requests = (await emulator.requests()).filter((r) => r.endpoint === 'chat');
    assert.equal(requests.length, 1);
    assert.equal(requests[0].chat!.stream, true);
    await workbench.screenshot('chat-reply');
  });

  it('Shift+Enter adds a line instead of sending', async () => {
    await chatView.type('first line');
    await chatView.press('Shift+Enter');
    await chatView.type('second line');
    assert.equal(await chatView.count('.turn-user'), 1);
    await chatView.press('Enter');
    await chatView.waitForText('.turn-user', 'second line');
    await chatView.waitForReply(1);
  });

  it('renders code blocks with highlighting and copies them exactly', async () => {
    await chatView.ask('Show me a function in code');
    await chatView.waitFor('.turn-assistant pre code .hljs-keyword');
    await vscode.env.clipboard.writeText('');
    await chatView.click('.turn-assistant:last-child [data-code-action="copy"]');
    await until(async () => (await vscode.env.clipboard.readText()).includes('function echo(question: string): string {'), 'the copied code');
  });

  it('Copy reply puts the reply on the clipboard as written, markdown and all', async () => {
    await vscode.env.clipboard.writeText('');
    const reply = (await chatView.texts('.turn-assistant:last-child .turn-body'))[0];
    await chatView.click('.turn-assistant:last-child .copy-reply');
    await until(async () => (await vscode.env.clipboard.readText()) !== '', 'the copied reply');
    const copied = await vscode.env.clipboard.readText();
    assert.match(copied, /```\w*\nfunction echo\(question: string\): string \{/, 'the code fence is kept');
    assert.ok(copied.replace(/[`*_#]/g, '').includes(reply.split('\n')[0].trim()), `starts like the reply shown: ${JSON.stringify(copied.slice(0, 80))}`);
  });

  it('a table wider than the panel scrolls sideways without splitting a word; Show Last Answer as Plain Text opens it as written', async () => {
    // With code in it too: the tests after this one use the last reply's code block.
    await chatView.ask('Compare sorting algorithms and show the code [table]');
    const [table] = await chatView.layout('.turn-assistant:last-child .table-scroll');
    assert.ok(table.scrollWidth > table.clientWidth, `the table scrolls in its box: ${JSON.stringify(table)}`);
    assert.deepEqual(table.splitWords, [], 'no word of the table is split across lines');
    await chatView.screenshot('wide-table');
    // Alt+F2 in the chat view, as VS Code's accessible view.
    await chatView.press('Alt+F2');
    await until(() => vscode.window.activeTextEditor?.document.uri.scheme === 'gigachat-answer', 'the answer in a read-only editor');
    assert.ok(vscode.window.activeTextEditor!.document.getText().includes('| Быстрая сортировка | O(n log n) |'), 'the answer as written, table and all');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('Open in editor shows the code in a new editor with its language; Insert puts it at the cursor', async () => {
    await chatView.click('.turn-assistant:last-child [data-code-action="open"]');
    await until(() => vscode.window.activeTextEditor?.document.languageId === 'typescript', 'a TypeScript editor');
    const opened = vscode.window.activeTextEditor!.document;
    assert.ok(opened.isUntitled);
    assert.match(opened.getText(), /function echo\(question: string\): string \{/);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');

    const file = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'insert-here.txt');
    await vscode.workspace.fs.writeFile(file, Buffer.from('before\n'));
    const target = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(target);
    editor.selection = new vscode.Selection(1, 0, 1, 0);
    await chatView.click('.turn-assistant:last-child [data-code-action="insert"]');
    await until(() => target.getText().includes('function echo'), 'the inserted code');
    assert.ok(target.getText().startsWith('before\nfunction echo'), `the document reads: ${JSON.stringify(target.getText().slice(0, 40))}`);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('Insert with no file open says so rather than picking some editor', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await chatView.click('.turn-assistant:last-child [data-code-action="insert"]');
    await until(
      async () => (await workbench.notifications()).some((text) => /no open file to insert the code into/.test(text)),
      'a notification that says why',
    );
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  it('Insert into a read-only file changes nothing, says why and offers the code in a new editor', async () => {
    const files = () => vscode.workspace.getConfiguration('files');
    await files().update('readonlyInclude', { '**/locked.txt': true }, vscode.ConfigurationTarget.Workspace);
    const file = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'locked.txt');
    await vscode.workspace.fs.writeFile(file, Buffer.from('keep me\n'));
    try {
      const locked = await vscode.workspace.openTextDocument(file);
      await vscode.window.showTextDocument(locked);
      await chatView.click('.turn-assistant:last-child [data-code-action="insert"]');
      await until(
        async () => (await workbench.notifications()).some((text) => /could not be inserted: locked\.txt is read-only/.test(text)),
        'a notification that says why',
      );
      assert.equal(locked.getText(), 'keep me\n');
      await workbench.notificationButton('read-only', 'Open in new editor');
      await until(() => vscode.window.activeTextEditor?.document.isUntitled === true, 'the code in a new editor');
      assert.match(vscode.window.activeTextEditor!.document.getText(), /function echo/);
      assert.equal(vscode.window.activeTextEditor!.document.languageId, 'typescript');
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await files().update('readonlyInclude', undefined, vscode.ConfigurationTarget.Workspace);
      await vscode.commands.executeCommand('notifications.clearAll');
    }
  });

  it('the model picker lists the chat models of the account, and the choice is used and remembered', async () => {
    await until(async () => (await chatView.texts('.model-select option')).includes('GigaChat-2-Max'), 'the models from the service');
    const options = await chatView.texts('.model-select option');
    assert.ok(!options.includes('Embeddings'), 'embedding models are not offered for chat');
    await callOuter('webview', { action: 'select', selector: '.model-select', value: 'GigaChat-2-Pro' });
    await until(() => vscode.workspace.getConfiguration('gigachat').get('model') === 'GigaChat-2-Pro', 'the remembered model');
    await emulator.resetCounts();
    await chatView.ask('Which model answers?');
    const [request] = (await emulator.requests()).filter((r) => r.endpoint === 'chat');
    assert.equal(request.chat!.model, 'GigaChat-2-Pro');
    await vscode.workspace.getConfiguration('gigachat').update('model', undefined, vscode.ConfigurationTarget.Global);
  });

  it('a model picked while the workspace sets its own model replaces the workspace one, not hidden under it', async () => {
    const settings = () => vscode.workspace.getConfiguration('gigachat');
    await settings().update('model', 'GigaChat-2-Pro', vscode.ConfigurationTarget.Workspace);
    try {
      await until(async () => (await chatView.texts('.model-select option:checked'))[0] === 'GigaChat-2-Pro', 'the workspace model in the picker');
      await callOuter('webview', { action: 'select', selector: '.model-select', value: 'GigaChat-2-Max' });
      await until(() => settings().get('model') === 'GigaChat-2-Max', 'the picked model in effect');
      assert.equal(settings().inspect('model')?.globalValue, undefined, 'the user settings are left alone');
      await until(async () => (await chatView.texts('.model-select option:checked'))[0] === 'GigaChat-2-Max', 'the picker keeping the choice');
    } finally {
      await settings().update('model', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  it('a model that cannot be saved (the settings file has unsaved changes) says so, and the picker goes back', async function () {
    // The window's first settings.json starts VS Code's JSON language support on the way: slow beside the webview suite.
    this.timeout(90_000);
    await until(async () => (await chatView.texts('.model-select option')).includes('GigaChat-2-Max'), 'the models from the service');
    const inUse = (await chatView.texts('.model-select option:checked'))[0];
    const other = (await chatView.texts('.model-select option')).find((model) => model !== inUse)!;
    await vscode.commands.executeCommand('workbench.action.openSettingsJson');
    await until(() => vscode.window.activeTextEditor?.document.uri.path.endsWith('/settings.json') === true, 'the user settings open');
    const settingsEditor = vscode.window.activeTextEditor!;
    assert.ok(await settingsEditor.edit((edit) => edit.insert(new vscode.Position(0, 0), ' ')));
    try {
      await callOuter('webview', { action: 'select', selector: '.model-select', value: other });
      await until(
        async () => (await workbench.notifications()).some((text) => /GigaChat could not do that/.test(text)),
        'a notification that says why',
        30_000,
      );
      await until(async () => (await chatView.texts('.model-select option:checked'))[0] === inUse, 'the picker back on the model in use', 30_000);
      assert.notEqual(vscode.workspace.getConfiguration('gigachat').get('model'), other);
    } finally {
      // VS Code may still be opening an editor of its own for the failed write: bring the file forward once it has.
      await until(
        async () =>
          vscode.window.showTextDocument(settingsEditor.document).then(
            () => true,
            () => false,
          ),
        'the settings editor in front',
      );
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      await vscode.commands.executeCommand('notifications.clearAll');
    }
  });

  it('Stop aborts the request, keeps the partial reply and marks it stopped', async () => {
    await emulator.resetCounts();
    await chatView.type('Write a very long essay [long]');
    await chatView.press('Enter');
    await chatView.waitFor('.send-button.is-stop');
    await chatView.waitFor('.turn-assistant:last-child .turn-body p');
    await chatView.click('.send-button.is-stop');
    await chatView.waitFor('.turn-assistant:last-child .note-stopped');
    const partial = (await chatView.texts('.turn-assistant:last-child .turn-body'))[0];
    assert.ok(partial.length > 0, 'the partial reply is kept');
  });

  it('Edit on a question asks it again in its place: the replies after it go, the model hears only the new question, the history keeps it', async () => {
    await chatView.newChat();
    await chatView.ask('Name a colour');
    await chatView.ask('Name a fruit');
    await emulator.resetCounts();
    await chatView.editQuestion(0, 'Name a planet');
    await chatView.waitForReply(0);
    assert.deepEqual(await chatView.textContents('.turn-user .user-text'), ['Name a planet']);
    assert.equal(await chatView.count('.turn-assistant'), 1);
    await chatView.waitForText('.turn-assistant .turn-body', 'You asked: "Name a planet"');
    const chats = (await emulator.requests()).filter((request) => request.endpoint === 'chat');
    assert.deepEqual(
      chats[0].chat!.messages.filter((message: { role: string }) => message.role !== 'system'),
      [{ role: 'user', content: 'Name a planet' }],
    );
    await chatView.click('button[aria-label="Chat history"]');
    await chatView.waitFor('.history-title');
    assert.ok((await chatView.textContents('.history-title')).includes('Name a planet'), 'the chat is named after its new first question');
    await chatView.click('.history-close');
  });

  describe('while a reply streams', function () {
    this.timeout(60_000); // the long answer takes the emulator about 12 s to stream
    /** Sends a prompt for the long answer and waits until its first paragraph shows. */
    const startLongReply = async (prompt: string) => {
      await chatView.type(`${prompt} [long]`);
      await chatView.press('Enter');
      await chatView.waitFor('.turn-assistant:last-child .turn-body p');
    };
    afterEach(async () => {
      // A failed test must not leave the History dialog over the view for the next ones.
      if (await chatView.count('.history-dialog:visible')) await chatView.click('.history-close');
    });

    it('a selection explained meanwhile is answered once the reply ends, and the reply is not cut short', async () => {
      await emulator.resetCounts();
      const before = await chatView.count('.turn-assistant');
      const stoppedBefore = await chatView.count('.turn-assistant .note-stopped');
      await startLongReply('Write a long essay');
      const document = await vscode.workspace.openTextDocument({ language: 'typescript', content: 'const answer = 42;\nexport default answer;\n' });
      const editor = await vscode.window.showTextDocument(document);
      editor.selection = new vscode.Selection(0, 0, 1, 0);
      await vscode.commands.executeCommand('gigachat.explainSelection');
      await chatView.waitForText('.turn-user:last-child', 'const answer = 42');
      await chatView.waitForReply(before + 1);
      assert.equal(await chatView.count('.turn-assistant .note-stopped'), stoppedBefore, 'neither reply was stopped');
      const chats = (await emulator.requests()).filter((request) => request.endpoint === 'chat');
      assert.equal(chats.length, 2);
      assert.match(chats[1].chat!.messages.at(-1)!.content, /const answer = 42;/);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    });

    it('opening the same conversation from History redraws it and keeps the reply coming', async () => {
      await chatView.newChat();
      const before = await chatView.count('.turn-assistant');
      await startLongReply('Keep writing');
      await chatView.click('button[aria-label="Chat history"]');
      await chatView.click('.history-open[aria-label*="Keep writing"]');
      await chatView.waitForReply(before);
      assert.equal(await chatView.count('.turn-assistant:last-child .note-stopped'), 0);
      assert.ok((await chatView.count('.turn-assistant:last-child h2')) >= 10, 'the whole long answer arrived');
    });
  });

  it('Ctrl+Alt+G from the editor puts the cursor in the chat input', async () => {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ content: 'const answer = 42;\n' }));
    await workbench.press('Control+Alt+G');
    await chatView.waitFor('textarea:focus', 'attached'); // the view opens, then takes the focus: a person waits for the cursor too
    await workbench.typeText('typed after the shortcut');
    try {
      assert.equal(await chatView.inputValue(), 'typed after the shortcut');
      assert.equal(vscode.window.activeTextEditor?.document.getText(), 'const answer = 42;\n', 'nothing went into the editor');
    } finally {
      await chatView.press('Control+A');
      await chatView.press('Delete');
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });

  it('a picture request shows the downloaded image inline, loaded by the view from where the host keeps it', async () => {
    await chatView.ask('Draw a picture of a pink cat');
    const picture = '.turn-assistant:last-child figure.reply-image img';
    await chatView.waitFor(picture);
    const sources = await chatView.attributes(picture, 'src');
    assert.match(sources[0] ?? '', /^https:\/\/[^/]+\.vscode-cdn\.net\/.*\/images\/[\w-]+\.jpg$/, 'a webview resource address: the message carries no picture');
    await until(async () => ((await chatView.properties<number>(picture, 'naturalWidth'))[0] ?? 0) > 0, 'the picture drawn');
    assert.equal(await emulator.count('files'), 1);
  });

  it('a picture still downloading when the user starts a new chat arrives all the same', async () => {
    await emulator.resetCounts();
    await emulator.inject({ kind: 'slowFirstByte', ms: 3000 }, { endpoint: 'files' });
    try {
      await chatView.newChat(); // a chat of its own, to find in History
      await chatView.type('Draw a picture of a green frog');
      await chatView.press('Enter');
      await until(async () => (await emulator.count('files')) === 1, 'the picture’s download under way');
      await chatView.newChat();
      await chatView.click('button[aria-label="Chat history"]');
      await chatView.click('.history-open[aria-label*="Draw a picture of a green frog"]');
      await chatView.waitFor('.turn-assistant:last-child figure.reply-image img', 'visible', 15_000);
      assert.equal(await chatView.count('.turn-assistant:last-child .note-stopped'), 0, 'the reply is not marked stopped');
    } finally {
      await emulator.clearFaults();
    }
  });

  it('a picture whose download failed is downloaded again when its chat is shown again', async () => {
    await emulator.resetCounts();
    await emulator.inject({ kind: 'status', status: 404, message: 'file not found' }, { endpoint: 'files' });
    try {
      await chatView.newChat(); // a chat of its own, to find in History
      await chatView.ask('Draw a picture of a blue whale');
      await chatView.waitFor('.turn-assistant:last-child .note-warning');
      assert.match((await chatView.texts('.turn-assistant:last-child .note-warning'))[0] ?? '', /picture could not be downloaded/);
      assert.equal(await chatView.count('.turn-assistant:last-child figure.reply-image'), 0);
    } finally {
      await emulator.clearFaults();
    }
    await chatView.newChat();
    await chatView.click('button[aria-label="Chat history"]');
    await chatView.click('.history-open[aria-label*="Draw a picture of a blue whale"]');
    await chatView.waitFor('.turn-assistant:last-child figure.reply-image img', 'visible', 15_000);
    assert.equal(await chatView.count('.turn-assistant:last-child .note-warning'), 0, 'the notice went with the picture’s arrival');
    assert.equal(await emulator.count('files'), 2);
  });

  it('deleting a conversation deletes the pictures it drew, and only those', async () => {
    const workspaceStorage = path.join(await productStorage(), '..', '..', 'workspaceStorage');
    const pictures = () =>
      fs.readdirSync(workspaceStorage).flatMap((folder) => {
        const images = path.join(workspaceStorage, folder, 'gigachat-vscode.gigachat', 'images');
        return fs.existsSync(images) ? fs.readdirSync(images) : [];
      });
    const before = pictures();
    assert.ok(before.length > 0, 'the picture of the previous test is stored');
    await chatView.newChat();
    await chatView.ask('Draw a picture of a green dog to delete');
    await chatView.waitFor('.turn-assistant:last-child figure.reply-image img');
    await until(() => pictures().length > before.length, 'the new picture is stored');
    const drawn = pictures().filter((name) => !before.includes(name));
    await chatView.click('button[aria-label="Chat history"]');
    await chatView.click('.history-delete[aria-label*="green dog to delete"]');
    await until(() => !pictures().some((name) => drawn.includes(name)), 'the deleted chat’s picture is gone from the disk');
    assert.deepEqual(pictures().sort(), [...before].sort(), 'the other chats keep theirs');
    await chatView.click('.history-close');
  });

  it('the blacklist finish reason is explained', async () => {
    await chatView.ask('Tell me something forbidden [blacklist]');
    await chatView.waitFor('.turn-assistant:last-child .note-info');
  });

  it('a chat grown too long for the model is answered without its earliest messages, says so, and goes on from there', async function () {
    this.timeout(90_000); // a 20,000-character answer and four more, drawn in the panel: about 20 s on 2 busy CPUs, more beside another window
    await chatView.newChat();
    await chatView.ask('Write a very long essay on retries [long]'); // 20,000 characters: about 5,000 tokens
    await chatView.ask('Short question one');
    const sent = async () => (await emulator.requests()).filter((r) => r.endpoint === 'chat').map((r) => r.chat!.messages.map((m) => m.content).join('\n'));
    await emulator.setOptions({ contextTokens: 1_000 });
    try {
      await emulator.resetCounts();
      await chatView.ask('Short question two');
      await chatView.waitForText('.turn-assistant:last-child .note-info', "do not see the chat's 2 earliest messages");
      let requests = await sent();
      assert.equal(requests.length, 2, 'refused whole, then answered without the essay');
      assert.ok(!requests[1].includes('very long essay'));
      assert.ok(requests[1].includes('Short question one'), 'the recent part goes');
      await emulator.resetCounts();
      await chatView.ask('Short question three');
      requests = await sent();
      assert.equal(requests.length, 1, 'the next reply starts where the last one did, without being refused first');
      assert.ok(!requests[0].includes('very long essay'));
      assert.equal(await chatView.count('.turn-assistant:last-child .note-info'), 0, 'said once');
      assert.equal(await chatView.count('.turn-user'), 4, 'every message is still shown');
    } finally {
      await emulator.setOptions({ contextTokens: 131_072 });
    }
  });

  it('New chat starts an empty conversation; history lists and reopens the old one', async () => {
    await chatView.newChat();
    await chatView.click('button[aria-label="Chat history"]');
    await chatView.waitForText('.history-title', 'What does the retry helper do?');
    await chatView.click('.history-open[aria-label*="What does the retry helper do?"]');
    await chatView.waitForText('.turn-user', 'What does the retry helper do?');
  });

  it('Export Chat as Markdown opens the conversation shown in a Markdown editor', async () => {
    await vscode.commands.executeCommand('gigachat.exportChat');
    await until(() => vscode.window.activeTextEditor?.document.languageId === 'markdown', 'a Markdown editor');
    const exported = vscode.window.activeTextEditor!.document;
    assert.ok(exported.isUntitled, 'nothing is written to disk until the user saves it');
    const text = exported.getText();
    assert.match(text, /^# What does the retry helper do\?\n/);
    assert.match(text, /\*\*You\*\*\n\nWhat does the retry helper do\?\n/);
    assert.match(text, /\*\*GigaChat\*\*\n\n\*\*Emulated answer\.\*\* You asked: "What does the retry helper do\?"/);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('follows the colour theme: screenshots in light and dark', async () => {
    const config = vscode.workspace.getConfiguration('workbench');
    for (const [theme, name] of [
      ['Default Light Modern', 'chat-light'],
      ['Default Dark Modern', 'chat-dark'],
    ] as const) {
      await config.update('colorTheme', theme, vscode.ConfigurationTarget.Global);
      await until(
        async () => (await chatView.count(theme.includes('Light') ? 'body.vscode-light' : 'body.vscode-dark')) === 1,
        `the ${theme} theme in the view`,
      );
      await chatView.screenshot(name);
    }
  });
});
