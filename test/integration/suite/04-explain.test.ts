import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { chatView, emulator, ensureKey, screenshotInBothThemes, until, workbench } from '../drivers';
import { hasOuterRunner } from '../outer';

const SOURCE = [
  'export function retryUpload(file: string, attempts = 3): boolean {',
  '  for (let i = 0; i < attempts; i++) {',
  '    if (upload(file)) return true;',
  '  }',
  '  return false;',
  '}',
  'declare function upload(file: string): boolean;',
].join('\n');

describe('explain selection', function () {
  let editor: vscode.TextEditor;

  before(async function () {
    if (!hasOuterRunner()) this.skip();
    await ensureKey();
    const folder = vscode.workspace.workspaceFolders![0].uri;
    const file = vscode.Uri.joinPath(folder, 'retry.ts');
    await vscode.workspace.fs.writeFile(file, Buffer.from(SOURCE));
    editor = await vscode.window.showTextDocument(file);
  });

  it('offers Explain with GigaChat as a code action on a selection, and not without one', async () => {
    const uri = editor.document.uri;
    const withSelection = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, new vscode.Range(1, 0, 3, 3));
    assert.ok(withSelection.some((a) => a.command?.command === 'gigachat.explainSelection'));
    const empty = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, new vscode.Range(1, 0, 1, 0));
    assert.ok(!empty.some((a) => a.command?.command === 'gigachat.explainSelection'));
  });

  it("the editor's right-click menu holds GigaChat's items in a GigaChat submenu, none named as another item of the menu", async () => {
    editor.selection = new vscode.Selection(1, 0, 4, 0);
    await vscode.window.showTextDocument(editor.document);
    const labels = () => workbench.texts('.context-view .monaco-menu .action-label');
    await workbench.press('Shift+F10');
    try {
      await until(async () => (await labels()).includes('GigaChat'), 'the GigaChat submenu in the context menu');
      const top = (await labels()).filter(Boolean);
      assert.deepEqual(
        top.filter((label, i) => top.indexOf(label) !== i),
        [],
        `labels shown twice: ${top.join(', ')}`,
      );
      for (const own of ['Explain Selection', 'Add Selection to GigaChat'])
        assert.ok(!top.includes(own), `${own} is in the submenu, not beside VS Code's items`);
      await workbench.click('.context-view .monaco-menu .action-label:text-is("GigaChat")');
      await until(async () => {
        const shown = await labels();
        return ['Explain Selection', 'Add Selection to GigaChat'].every((own) => shown.includes(own));
      }, 'the submenu with Explain Selection and Add Selection to GigaChat');
      await workbench.screenshot('editor-context-menu');
    } finally {
      await workbench.press('Escape');
      await workbench.press('Escape');
    }
  });

  it('without a selection, Explain takes the function around the cursor, from the right-click menu shown always', async () => {
    await until(
      async () =>
        ((await vscode.commands.executeCommand<vscode.DocumentSymbol[] | undefined>('vscode.executeDocumentSymbolProvider', editor.document.uri)) ?? [])
          .length > 0,
      "the TypeScript extension's symbols of the file",
    );
    editor.selection = new vscode.Selection(2, 4, 2, 4);
    await vscode.window.showTextDocument(editor.document);
    await workbench.press('Shift+F10');
    try {
      await until(
        async () => (await workbench.texts('.context-view .monaco-menu .action-label')).includes('GigaChat'),
        'the GigaChat submenu with nothing selected',
      );
    } finally {
      await workbench.press('Escape');
    }
    const before = await chatView.count('.turn-assistant');
    await vscode.commands.executeCommand('gigachat.explainSelection');
    await chatView.waitForText('.turn-user .explain-chip', 'retry.ts:1–6');
    await chatView.waitForReply(before);
  });

  it('sends the selection with file name, language and line numbers, and the explanation streams into the chat', async () => {
    await emulator.resetCounts();
    editor.selection = new vscode.Selection(1, 0, 4, 0);
    await vscode.window.showTextDocument(editor.document);
    const before = await chatView.count('.turn-assistant');
    await vscode.commands.executeCommand('gigachat.explainSelection');
    await chatView.waitForText('.turn-user .explain-chip', 'retry.ts:2–4');
    await chatView.waitForReply(before);
    // This question's own answer, not an earlier one's, before the picture is taken.
    await chatView.waitForText('.turn-assistant:last-child .turn-body', 'lines 2–4');
    // The question reads as a short command and where the code is, not as the prompt the model got.
    const question = (await chatView.texts('.turn-user')).at(-1) ?? '';
    assert.match(question, /Explain\s+retry\.ts:2–4/);
    assert.ok(!question.includes('what it does, how') && !question.includes('```'), `no template, no fences: ${question}`);
    await screenshotInBothThemes('explain-question', chatView.screenshot, true);
    const request = (await emulator.requests()).find((r) => r.endpoint === 'chat');
    const sent = request!.chat!.messages.at(-1)!.content;
    assert.match(sent, /retry\.ts/);
    assert.match(sent, /lines 2–4/);
    assert.match(sent, /```typescript\n/);
    assert.ok(sent.includes('for (let i = 0; i < attempts; i++) {'));
    assert.ok(!sent.includes('export function retryUpload'), 'only the selection is sent');
    assert.equal(path.basename(editor.document.fileName), 'retry.ts');
  });

  it('trims a very large selection and says so', async () => {
    const big = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'big.txt');
    await vscode.workspace.fs.writeFile(big, Buffer.from('const value = 1;\n'.repeat(2_000)));
    const bigEditor = await vscode.window.showTextDocument(big);
    bigEditor.selection = new vscode.Selection(0, 0, 2_000, 0);
    const before = await chatView.count('.turn-assistant');
    await vscode.commands.executeCommand('gigachat.explainSelection');
    await chatView.waitFor('.turn-user .turn-notice');
    await chatView.waitForReply(before);
  });
});

describe('code added to the chat', function () {
  let document: vscode.TextDocument;

  before(async function () {
    if (!hasOuterRunner()) this.skip();
    const file = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'retry.ts');
    await vscode.workspace.fs.writeFile(file, Buffer.from(SOURCE));
    document = await vscode.workspace.openTextDocument(file);
    await chatView.newChat();
  });

  // The search suite counts the workspace's files: only the ones it knows stay.
  after(async () => {
    for (const name of ['notes.md', 'logo.png', '.env']) {
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, name)).then(undefined, () => undefined);
    }
  });

  /** The last user message the service was sent. */
  async function lastSent(): Promise<string> {
    const request = (await emulator.requests()).filter((r) => r.endpoint === 'chat').at(-1);
    return request!.chat!.messages.at(-1)!.content;
  }

  async function select(range: vscode.Selection): Promise<void> {
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = range;
  }

  it('the selected code waits above the input and goes with the question typed there', async () => {
    await emulator.resetCounts();
    await select(new vscode.Selection(1, 0, 4, 0));
    await vscode.commands.executeCommand('gigachat.addSelectionToChat');
    await chatView.waitForText('.attachment-chip', 'retry.ts:2–4');
    await chatView.waitFor('textarea:focus', 'attached');
    assert.equal(await emulator.count('chat'), 0, 'nothing is sent before the question');
    const before = await chatView.count('.turn-assistant');
    await chatView.type('Can this loop give up sooner?');
    await chatView.press('Enter');
    await chatView.waitForReply(before);
    const sent = await lastSent();
    assert.ok(sent.startsWith('Can this loop give up sooner?\n\n'), 'the question comes first');
    assert.match(sent, /retry\.ts, lines 2–4\n```typescript\n/);
    assert.ok(sent.includes('for (let i = 0; i < attempts; i++) {'));
    assert.ok(!sent.includes('export function retryUpload'), 'only the selection is sent');
    await chatView.waitForText('.turn-user .context-chip', 'retry.ts:2–4');
    assert.equal(await chatView.count('.attachment-chip'), 0, 'the code went with the message');
  });

  it('Ctrl+Alt+G attaches the selection; a piece taken out with its × is not sent', async () => {
    await select(new vscode.Selection(0, 0, 0, 10));
    await workbench.press('Control+Alt+G');
    await chatView.waitForText('.attachment-chip', 'retry.ts:1');
    // Attaching moves the cursor to the chat input: only once it is there does the editor take it back.
    await chatView.waitFor('textarea:focus', 'attached');
    await select(new vscode.Selection(6, 0, 6, document.lineAt(6).text.length));
    await workbench.press('Control+Alt+G');
    await chatView.waitForText('.attachment-chip:last-child', 'retry.ts:7');
    assert.equal(vscode.window.activeTextEditor?.document.getText(), SOURCE, 'nothing went into the editor');
    await chatView.click('.attachment-chip:first-child .remove-attachment');
    await until(async () => (await chatView.count('.attachment-chip')) === 1, 'one piece left');
    const before = await chatView.count('.turn-assistant');
    await chatView.type('What does this declare?');
    await chatView.press('Enter');
    await chatView.waitForReply(before);
    const sent = await lastSent();
    assert.ok(sent.includes('declare function upload(file: string): boolean;'), `the piece left is sent: ${sent}`);
    assert.ok(!sent.includes('export function'), 'the piece taken out is not');
  });

  it('the same selection twice is one piece', async () => {
    await select(new vscode.Selection(2, 0, 3, 0));
    await vscode.commands.executeCommand('gigachat.addSelectionToChat');
    await vscode.commands.executeCommand('gigachat.addSelectionToChat');
    await chatView.waitForText('.attachment-chip', 'retry.ts:3');
    assert.equal(await chatView.count('.attachment-chip'), 1);
    await chatView.click('.attachment-chip .remove-attachment');
    await chatView.waitFor('.attachment-chip', 'hidden');
  });

  it('a ninth piece is refused with a word why; the eight stay', async () => {
    for (let end = 1; end <= 9; end++) {
      await select(new vscode.Selection(0, 0, 0, end));
      await vscode.commands.executeCommand('gigachat.addSelectionToChat');
    }
    await until(
      async () => (await workbench.notifications()).some((text) => text.includes('At most 8 pieces of code can be attached to one message')),
      'the warning',
    );
    assert.equal(await chatView.count('.attachment-chip'), 8);
    while ((await chatView.count('.attachment-chip')) > 0) await chatView.click('.attachment-chip .remove-attachment');
  });

  it('Add File to GigaChat attaches whole files, as the explorer passes them, named without line numbers', async () => {
    const folder = vscode.workspace.workspaceFolders![0].uri;
    const notes = vscode.Uri.joinPath(folder, 'notes.md');
    await vscode.workspace.fs.writeFile(notes, Buffer.from('# Notes\n\nUploads retry three times.\n'));
    await vscode.commands.executeCommand('gigachat.addFileToChat', document.uri, [document.uri, notes]);
    await chatView.waitForText('.attachment-chip:last-child', 'notes.md');
    assert.deepEqual(await chatView.texts('.attachment-chip .chip-label'), ['retry.ts', 'notes.md']);
    const before = await chatView.count('.turn-assistant');
    await chatView.type('Do the notes match the code?');
    await chatView.press('Enter');
    await chatView.waitForReply(before);
    const sent = await lastSent();
    assert.ok(sent.includes(`retry.ts\n\`\`\`typescript\n${SOURCE}\n\`\`\``), 'the whole of retry.ts');
    assert.ok(sent.includes('notes.md\n```markdown\n# Notes'), 'the whole of notes.md');
  });

  it('a file that is not text is not attached, and the user is told why', async () => {
    const picture = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'logo.png');
    await vscode.workspace.fs.writeFile(
      picture,
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1]),
    );
    await vscode.commands.executeCommand('gigachat.addFileToChat', picture);
    await until(
      async () => (await workbench.notifications()).some((text) => text.includes('logo.png was not added to the chat: it is not a text file')),
      'the warning',
    );
    assert.equal(await chatView.count('.attachment-chip'), 0);
  });

  it('code from a file that looks like it holds secrets goes only after an explicit yes', async () => {
    const secrets = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, '.env');
    await vscode.workspace.fs.writeFile(secrets, Buffer.from('API_TOKEN=not-a-real-token\n'));
    void vscode.commands.executeCommand('gigachat.addFileToChat', secrets);
    assert.match(await workbench.dialogText(), /\.env looks like a file that holds secrets/);
    await workbench.dialogButton('Cancel');
    const editor = await vscode.window.showTextDocument(secrets);
    editor.selection = new vscode.Selection(0, 0, 0, 9);
    void vscode.commands.executeCommand('gigachat.addSelectionToChat');
    await workbench.dialogText();
    await workbench.dialogButton('Send anyway');
    await chatView.waitForText('.attachment-chip', '.env:1');
    assert.equal(await chatView.count('.attachment-chip'), 1, 'the file refused first was not attached');
    await chatView.click('.attachment-chip .remove-attachment');
    await chatView.waitFor('.attachment-chip', 'hidden');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
