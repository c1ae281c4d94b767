import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { chatView, emulator, openChat, until, workbench } from '../drivers';
import { hasOuterRunner } from '../outer';

describe('chat view', function () {
  before(async function () {
    if (!hasOuterRunner()) this.skip();
    await openChat();
    await chatView.click('button[aria-label="New chat"]');
  });

  it('a question typed and sent with Enter streams its answer into the view', async () => {
    await emulator.resetCounts();
    await chatView.ask('What does the retry helper do?');
    await chatView.waitForText('.turn-user', 'What does the retry helper do?');
    await chatView.waitForText('.turn-assistant .turn-body', 'You asked: "What does the retry helper do?"');
    const requests = (await emulator.requests()).filter((r) => r.endpoint === 'chat');
    assert.equal(requests.length, 1);
    assert.equal(JSON.parse(requests[0].body).stream, true);
    await workbench.screenshot('chat-reply');
  });

  it('Shift+Enter adds a line instead of sending', async () => {
    await chatView.type('first line');
    await chatView.press('Shift+Enter');
    await chatView.type('second line');
    assert.equal(await chatView.count('.turn-user'), 1);
    await chatView.press('Enter');
    await chatView.waitForText('.turn-user', 'second line');
    await chatView.waitFor('.send-button:not(.is-stop)', 'attached', 30_000);
  });

  it('every turn of a conversation carries the same X-Session-ID', async () => {
    const sessions = (await emulator.requests()).filter((r) => r.endpoint === 'chat').map((r) => r.headers['x-session-id']);
    assert.ok(sessions.length >= 2);
    assert.equal(new Set(sessions).size, 1);
    assert.ok(sessions[0]);
  });

  it('renders code blocks with highlighting and copies them exactly', async () => {
    await chatView.ask('Show me a function in code');
    await chatView.waitFor('.turn-assistant pre code .hljs-keyword');
    await vscode.env.clipboard.writeText('');
    await chatView.click('.turn-assistant:last-child [data-code-action="copy"]');
    await until(async () => (await vscode.env.clipboard.readText()).includes('function echo(question: string): string {'), 'the copied code');
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

  it('a picture request shows the downloaded image inline', async () => {
    await chatView.ask('Draw a picture of a pink cat');
    await chatView.waitFor('.turn-assistant:last-child figure.reply-image img');
    const sources = await chatView.attributes('.turn-assistant:last-child figure.reply-image img', 'src');
    assert.match(sources[0] ?? '', /^data:image\/jpeg;base64,\/9j\//);
    assert.equal(await emulator.count('files'), 1);
  });

  it('the blacklist finish reason is explained', async () => {
    await chatView.ask('Tell me something forbidden [blacklist]');
    await chatView.waitFor('.turn-assistant:last-child .note-info');
  });

  it('New chat starts an empty conversation; history lists and reopens the old one', async () => {
    await chatView.click('button[aria-label="New chat"]');
    await until(async () => (await chatView.count('.turn')) === 0, 'an empty transcript');
    await chatView.click('button[aria-label="Chat history"]');
    await chatView.waitForText('.history-title', 'What does the retry helper do?');
    await chatView.click('.history-open');
    await chatView.waitForText('.turn-user', 'What does the retry helper do?');
  });

  it('follows the colour theme: screenshots in light and dark', async () => {
    const config = vscode.workspace.getConfiguration('workbench');
    for (const [theme, name] of [['Default Light Modern', 'chat-light'], ['Default Dark Modern', 'chat-dark']] as const) {
      await config.update('colorTheme', theme, vscode.ConfigurationTarget.Global);
      await until(async () => (await chatView.count(theme.includes('Light') ? 'body.vscode-light' : 'body.vscode-dark')) === 1, `the ${theme} theme in the view`);
      await chatView.screenshot(name);
    }
  });
});
