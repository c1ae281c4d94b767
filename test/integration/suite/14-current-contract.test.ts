import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { chatView, emulator, ensureKey, productLog, until, workbench } from '../drivers';
import { hasOuterRunner } from '../outer';
import { answerContaining, askInChatView, RESPONSES } from '../vscodeChat';

const settings = () => vscode.workspace.getConfiguration('gigachat');
const chats = async () => (await emulator.requests()).filter((request) => request.endpoint === 'chat');

/**
 * The service's current contract (v2/chat/completions) in a real VS Code: GigaChat 3 in the panel
 * and in VS Code's Chat, a web answer's sources, typeset formulas, a reasoning model's thinking,
 * and the previous contract (v1) where a host has no v2. The fallback comes last: the window then
 * speaks v1 with the emulator until it reloads, so suites that need v2 (the change review's
 * structured output) run before this one.
 */
describe('the current contract: GigaChat 3, web sources, formulas, reasoning, and v1 where v2 is missing', function () {
  this.timeout(90_000);

  before(async function () {
    if (!hasOuterRunner()) this.skip();
    await ensureKey();
    await chatView.newChat();
  });

  afterEach(async () => {
    await settings().update('model', undefined, vscode.ConfigurationTarget.Global);
  });

  it('GigaChat-3-Ultra answers in the panel on v2, and the reply names the model with its version', async () => {
    await settings().update('model', 'GigaChat-3-Ultra', vscode.ConfigurationTarget.Global);
    await emulator.resetCounts();
    await chatView.ask('Count from 1 to 3');
    const [request] = await chats();
    assert.equal(request.path, '/api/v2/chat/completions');
    assert.equal(request.chat?.model, 'GigaChat-3-Ultra');
    await chatView.waitForText('.turn-assistant:last-child .reply-model', 'GigaChat-3-Ultra:32.3.18.5');
  });

  it('#web: the answer links its sources by number, lists them under it, and shows no raw marker', async () => {
    await emulator.resetCounts();
    await chatView.ask('What is new in Python? #web');
    const [request] = await chats();
    assert.deepEqual(request.chat?.built_in_tools, ['image_generate', 'web_search']);
    const body = (await chatView.textContents('.turn-assistant:last-child .turn-body'))[0];
    assert.doesNotMatch(body, /sources=/);
    assert.match(body, /faster in the new release \[2\]/);
    assert.deepEqual(await chatView.attributes('.turn-assistant:last-child .turn-body a', 'href'), [
      'https://realpython.com/python-news/',
      'https://docs.python.org/3/whatsnew/index.html',
      'https://realpython.com/python-news/',
      'https://realpython.com/python-news/',
      'https://en.wikipedia.org/wiki/Python_%28programming_language%29',
    ]);
    assert.deepEqual(await chatView.textContents('.turn-assistant:last-child .web-sources li'), [
      'What’s New in Python · docs.python.org',
      'Python News and Releases · realpython.com',
      'Python (programming language) · en.wikipedia.org',
    ]);
    await chatView.screenshot('chat-web-answer');
  });

  it('formulas are typeset and money stays text; Copy reply gives the LaTeX as written', async () => {
    await chatView.ask('Give me the formula for a circle');
    await chatView.waitFor('.turn-assistant:last-child .katex');
    assert.equal(await chatView.count('.turn-assistant:last-child .katex math'), 2, 'an inline and a display formula, each with MathML');
    const body = (await chatView.textContents('.turn-assistant:last-child .turn-body'))[0];
    assert.match(body, /costs \$1\.5 million and \$2 million\./);
    await vscode.env.clipboard.writeText('');
    await chatView.click('.turn-assistant:last-child .copy-reply');
    await until(async () => (await vscode.env.clipboard.readText()).includes('$S = \\pi r^2$'), 'the LaTeX on the clipboard');
  });

  it("a reasoning model's thinking is shown apart from its answer, folded once the answer is there", async () => {
    await settings().update('model', 'GigaChat-2-Reasoning', vscode.ConfigurationTarget.Global);
    await chatView.ask('Why is the sky blue?');
    await chatView.waitFor('.turn-assistant:last-child details.reasoning', 'attached');
    assert.deepEqual(await chatView.properties('.turn-assistant:last-child details.reasoning', 'open'), [false]);
    assert.match((await chatView.textContents('.turn-assistant:last-child .reasoning-text'))[0], /The user asks: "Why is the sky blue\?"/);
    assert.doesNotMatch((await chatView.textContents('.turn-assistant:last-child .turn-body'))[0], /The user asks/);
  });

  it("GigaChat-3-Ultra answers other extensions through vscode.lm on v2, and @gigachat /web cites its sources in VS Code's Chat", async () => {
    const [model] = await vscode.lm.selectChatModels({ vendor: 'gigachat', id: 'GigaChat-3-Ultra' });
    assert.ok(model, 'GigaChat-3-Ultra is offered to VS Code');
    await emulator.resetCounts();
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('Count from 1 to 3')]);
    let text = '';
    for await (const piece of response.text) text += piece;
    assert.match(text, /Count from 1 to 3/);
    assert.deepEqual(
      (await chats()).map((request) => request.path),
      ['/api/v2/chat/completions'],
    );
    await vscode.workspace.getConfiguration('chat').update('disableAIFeatures', false, vscode.ConfigurationTarget.Global);
    try {
      await askInChatView('@gigachat /web What is new in Python?');
      const answer = await answerContaining('en.wikipedia.org');
      assert.match(answer, /Sources/);
      assert.doesNotMatch(answer, /sources=/);
      // VS Code renders the markdown: an address with parentheses stays one whole link.
      const links = [...(await workbench.attributes(`${RESPONSES} a`, 'href')), ...(await workbench.attributes(`${RESPONSES} a`, 'data-href'))];
      assert.ok(
        links.some((href) => href !== null && /^https:\/\/en\.wikipedia\.org\/wiki\/Python_(\(|%28)programming_language(\)|%29)$/.test(href)),
        `the whole address with its parentheses is the link's (links: ${links.join(', ')})`,
      );

      // A reasoning model's thinking: not part of the answer; its button opens it beside the chat.
      await vscode.commands.executeCommand('workbench.action.chat.newChat');
      await vscode.commands.executeCommand('workbench.action.chat.open', {
        query: '@gigachat Why is the sky blue?',
        modelSelector: { vendor: 'gigachat', id: 'GigaChat-2-Reasoning' },
      });
      const reasoned = await answerContaining('You asked: "Why is the sky blue?"');
      assert.doesNotMatch(reasoned, /The user asks/, 'the thinking is not shown as the answer');
      await workbench.clickButton(RESPONSES, "Show GigaChat's reasoning");
      const shown = () => vscode.window.visibleTextEditors.find((editor) => editor.document.uri.scheme === 'gigachat-reasoning');
      await until(() => shown() !== undefined, 'the reasoning beside the chat');
      assert.match(shown()!.document.getText(), /^The user asks: "Why is the sky blue\?"/);
      await workbench.screenshot('vscode-chat-reasoning');
      await vscode.window.showTextDocument(shown()!.document);
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    } finally {
      await vscode.commands.executeCommand('workbench.action.chat.cancel').then(undefined, () => undefined);
      await vscode.workspace.getConfiguration('chat').update('disableAIFeatures', true, vscode.ConfigurationTarget.Global);
    }
  });

  it('a host that answers v2 with 404 twice is asked on v1 from then on, and the log says so once', async () => {
    await emulator.setOptions({ chatV2: false });
    try {
      await emulator.resetCounts();
      await chatView.ask('Hello from an older installation');
      await chatView.ask('And once more');
      assert.deepEqual(
        (await chats()).map((request) => request.contract),
        ['v2', 'v2', 'v1', 'v1'],
      );
      await chatView.waitForText('.turn-assistant:last-child .turn-body', 'You asked: "And once more"');
      await until(async () => (await productLog()).includes('chat uses the previous contract (v1)'), 'the fallback in the log');
      assert.equal((await productLog()).split('chat uses the previous contract (v1)').length - 1, 1);
    } finally {
      await emulator.setOptions({ chatV2: true });
    }
  });
});
