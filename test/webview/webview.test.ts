import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { webviewStrings } from '../../src/shared/strings';
import { assistantTurn, servedPicture, state, userTurn } from './fixtures';
import { useView, View } from './harness';

describe('chat webview: behaviour', function () {
  this.timeout(60_000);
  let view: View;
  const harness = useView((opened) => (view = opened));

  const text = (selector: string) => view.page.locator(selector).first().textContent();

  it('posts ready once on load', async () => {
    await view.settle();
    assert.deepEqual(await view.posted(), [{ type: 'ready' }]);
  });

  it('renders the turns of a state message', async () => {
    await view.send(
      state({
        turns: [
          userTurn('u1', 'Hello <b>there</b>\n  second line', { contextLabel: 'app.ts:10–24', notice: 'Selection trimmed' }),
          assistantTurn('a1', '# Title\n\nSome *emphasis* and `code`.', { usage: { promptTokens: 40, completionTokens: 19, totalTokens: 59 } }),
        ],
      }),
    );
    const user = view.page.locator('.turn-user');
    assert.equal(await user.locator('.user-text').textContent(), 'Hello <b>there</b>\n  second line', 'user text is plain text');
    assert.equal(await user.locator('.user-text b').count(), 0);
    assert.equal(await user.locator('.context-chip').textContent(), 'app.ts:10–24');
    assert.equal(await user.locator('.turn-notice').textContent(), 'Selection trimmed');
    const reply = view.page.locator('.turn-assistant .turn-body');
    assert.equal(await reply.locator('h1').textContent(), 'Title');
    assert.equal(await reply.locator('em').textContent(), 'emphasis');
    assert.equal(await reply.locator('code').textContent(), 'code');
    assert.equal(await text('.usage'), '59 tokens');
    assert.match((await view.page.locator('.usage').getAttribute('title')) ?? '', /Prompt: 40 · Completion: 19 · Cached: 0 · Total: 59/);
    assert.equal(await view.page.locator('.model-select').inputValue(), 'GigaChat-2-Pro');
  });

  it('Enter sends, Shift+Enter inserts a line, and not while an input method composes', async () => {
    await view.send(state());
    const input = view.page.locator('textarea');
    await input.click();
    await input.pressSequentially('first line');
    await input.press('Shift+Enter');
    await input.pressSequentially('second line');
    assert.equal(await input.inputValue(), 'first line\nsecond line');
    assert.deepEqual(await view.postedOfType('send'), []);
    // An Enter that confirms an IME composition must not send.
    await view.page.evaluate(() => {
      const textarea = document.querySelector('textarea')!;
      textarea.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', isComposing: true, bubbles: true, cancelable: true }));
    });
    assert.deepEqual(await view.postedOfType('send'), []);
    await input.press('Enter');
    assert.deepEqual(await view.postedOfType('send'), [{ type: 'send', text: 'first line\nsecond line' }]);
    assert.equal(await input.inputValue(), '');
    const drafts = await view.postedOfType('draft');
    assert.equal(drafts.at(-1)?.text, '', 'the cleared draft is reported');
  });

  it('disables Send while the input is empty or blank', async () => {
    await view.send(state());
    const button = view.page.locator('.send-button');
    assert.equal(await button.isDisabled(), true);
    await view.page.locator('textarea').fill('   \n ');
    assert.equal(await button.isDisabled(), true);
    await view.page.locator('textarea').press('Enter');
    assert.deepEqual(await view.postedOfType('send'), []);
    await view.page.locator('textarea').fill('hi');
    assert.equal(await button.isDisabled(), false);
    assert.equal(await button.getAttribute('aria-label'), 'Send');
  });

  it('while busy the button is Stop and posts stop; Escape stops too; Enter does not send', async () => {
    await view.send(state({ busy: true }));
    const button = view.page.locator('.send-button');
    assert.equal(await button.getAttribute('aria-label'), 'Stop');
    assert.equal(await button.isDisabled(), false);
    await button.click();
    assert.deepEqual(await view.postedOfType('stop'), [{ type: 'stop' }]);
    const input = view.page.locator('textarea');
    await input.fill('next question');
    await input.press('Enter');
    assert.deepEqual(await view.postedOfType('send'), [], 'no send while busy');
    await input.press('Escape');
    assert.equal((await view.postedOfType('stop')).length, 2);
    await view.send({ type: 'busy', busy: false });
    assert.equal(await button.getAttribute('aria-label'), 'Send');
    await input.press('Enter');
    assert.deepEqual(await view.postedOfType('send'), [{ type: 'send', text: 'next question' }]);
  });

  it('code block buttons post copyCode, insertCode and openCode with the exact code', async () => {
    const code = 'const x = 1;\n\tconsole.log(`${x} <b>&amp;</b>`);\n\n// trailing blank line above';
    await view.send(state({ turns: [assistantTurn('a', `Here:\n\n\`\`\`ts\n${code}\n\`\`\`\n\n\`\`\`\nplain\n\`\`\``)] }));
    const blocks = view.page.locator('.code-block');
    assert.equal(await blocks.count(), 2);
    assert.equal(await blocks.first().locator('.code-lang').textContent(), 'ts');
    assert.ok((await blocks.first().locator('.hljs-keyword').count()) > 0, 'highlighted');
    // Each block's buttons are named with its language, so a screen reader's list of buttons tells them apart.
    const copy = blocks.first().getByRole('button', { name: 'Copy TypeScript code', exact: true });
    await copy.click();
    assert.deepEqual(await view.postedOfType('copyCode'), [{ type: 'copyCode', code, language: 'ts' }]);
    const copyButton = blocks.first().locator('.code-action').first();
    assert.equal(await copyButton.getAttribute('aria-label'), 'Copied');
    await blocks.first().getByRole('button', { name: 'Insert TypeScript code at cursor', exact: true }).click();
    await blocks.first().getByRole('button', { name: 'Open TypeScript code in new editor', exact: true }).click();
    assert.deepEqual(await view.postedOfType('insertCode'), [{ type: 'insertCode', code, language: 'ts' }]);
    assert.deepEqual(await view.postedOfType('openCode'), [{ type: 'openCode', code, language: 'ts' }]);
    await blocks.nth(1).getByRole('button', { name: 'Copy code', exact: true }).click();
    assert.deepEqual((await view.postedOfType('copyCode')).at(-1), { type: 'copyCode', code: 'plain' });
    // The copy button gets its own name back once it has shown that it copied.
    await copyButton.and(view.page.locator('[aria-label="Copy TypeScript code"]')).waitFor();
  });

  it('links post openLink and never navigate; unsafe links stay text', async () => {
    await view.send(
      state({
        turns: [
          assistantTurn(
            'a',
            'See [docs](https://example.com/a?b=1), <https://example.org>, [mail](mailto:a@b.c), [rel](./x.md) and [js](javascript:alert(1)).',
          ),
        ],
      }),
    );
    const links = view.page.locator('.turn-body a');
    assert.deepEqual(await links.evaluateAll((all) => all.map((a) => a.getAttribute('href'))), ['https://example.com/a?b=1', 'https://example.org']);
    const url = view.page.url();
    await links.first().click();
    await links.nth(1).click({ button: 'middle' });
    await view.settle();
    assert.equal(view.page.url(), url, 'no navigation');
    assert.deepEqual(await view.postedOfType('openLink'), [{ type: 'openLink', href: 'https://example.com/a?b=1' }]);
    assert.match((await text('.turn-body')) ?? '', /\[mail\]\(mailto:a@b\.c\), \[rel\]\(\.\/x\.md\) and \[js\]\(javascript:alert\(1\)\)/);
  });

  it('mail links stay plain text, as only web links can be opened', async () => {
    await view.send(
      state({ turns: [assistantTurn('a', 'Write to [support](mailto:help@example.com) or help@example.org, or see [docs](https://example.com).')] }),
    );
    const links = view.page.locator('.turn-body a');
    assert.deepEqual(await links.allTextContents(), ['docs'], 'only the web link is a link');
    assert.equal(await text('.turn-body'), 'Write to [support](mailto:help@example.com) or help@example.org, or see docs.\n');
  });

  it('shows images where their markers stood, opens and saves them', async () => {
    const content = 'Вот картинка:\n\n\uFFFC\n\nИ ещё одна \uFFFC в тексте.';
    await view.send(
      state({
        turns: [assistantTurn('a', content, { images: ['img-1', 'img-2', 'img-3'].map((fileId) => servedPicture(view.origin, fileId)) })],
      }),
    );
    const figures = view.page.locator('.reply-image');
    assert.deepEqual(await figures.evaluateAll((all) => all.map((f) => f.getAttribute('data-file-id'))), ['img-1', 'img-2', 'img-3']);
    assert.equal(await view.page.locator('.turn-body > .reply-image').first().getAttribute('data-file-id'), 'img-1', 'block image replaces its paragraph');
    assert.equal(await view.page.locator('.turn-body p .reply-image').getAttribute('data-file-id'), 'img-2', 'inline image stays in its paragraph');
    assert.ok(!((await text('.turn-body')) ?? '').includes('\uFFFC'));
    await figures.first().locator('.image-open').click();
    await figures.nth(1).hover();
    await figures.nth(1).getByRole('button', { name: 'Save image' }).click();
    assert.deepEqual(await view.postedOfType('openImage'), [{ type: 'openImage', fileId: 'img-1' }]);
    assert.deepEqual(await view.postedOfType('saveImage'), [{ type: 'saveImage', fileId: 'img-2' }]);
  });

  it('a picture whose tag the model put in code goes right after the code, and the pictures after it keep their places', async () => {
    const content = 'In a block:\n\n```html\n\uFFFC\n```\n\nInline `\uFFFC` here, then \uFFFC at last.';
    const images = ['in-block', 'in-span', 'in-text'].map((fileId) => servedPicture(view.origin, fileId));
    await view.send(state({ turns: [assistantTurn('a', content, { images })] }));
    const order = await view.page
      .locator('.turn-body')
      .evaluate((body) =>
        [...body.querySelectorAll('pre, code, .reply-image')]
          .filter((node) => !node.closest('pre') || node.localName === 'pre')
          .map((node) => (node.localName === 'figure' ? node.getAttribute('data-file-id') : node.localName)),
      );
    assert.deepEqual(order, ['pre', 'in-block', 'code', 'in-span', 'in-text']);
    assert.equal(await view.page.locator('.reply-image').count(), 3);
    assert.ok(!((await text('.turn-body')) ?? '').includes('\uFFFC'), 'no marker is left in the code');
  });

  it('explains finish reasons, stopped turns and errors with their actions', async () => {
    await view.send(
      state({
        turns: [
          userTurn('u1', 'q1'),
          assistantTurn('a1', 'cut', { finishReason: 'length' }),
          userTurn('u2', 'q2'),
          assistantTurn('a2', '', { finishReason: 'blacklist' }),
          userTurn('u3', 'q3'),
          assistantTurn('a3', 'partial', { status: 'stopped' }),
          userTurn('u5', 'q5'),
          assistantTurn('a5', 'half of it', { finishReason: 'error' }),
          userTurn('u6', 'q6'),
          assistantTurn('a6', 'Here is the picture: \uFFFC', { notice: 'The picture could not be downloaded: the network is down.' }),
          userTurn('u4', 'q4'),
          assistantTurn('a4', '', {
            status: 'error',
            error: { kind: 'auth', message: 'Ключ авторизации не подошёл.', actions: ['setKey', 'openLogs'], requestId: 'req-123' },
          }),
        ],
      }),
    );
    const turns = view.page.locator('.turn-assistant');
    assert.equal(await turns.nth(0).locator('.note-warning').textContent(), webviewStrings.finishLength);
    assert.equal(await turns.nth(1).locator('.note-info').textContent(), webviewStrings.finishBlacklist);
    assert.equal(await turns.nth(2).locator('.note-stopped').textContent(), 'Stopped');
    assert.equal(await turns.nth(3).locator('.note-warning').textContent(), webviewStrings.finishError);
    assert.equal(await turns.nth(4).locator('.note-warning').textContent(), 'The picture could not be downloaded: the network is down.');
    const error = turns.nth(5).locator('.turn-error');
    assert.equal(await error.locator('.error-message').textContent(), 'Ключ авторизации не подошёл.');
    assert.equal(await error.locator('.request-id').textContent(), 'Request ID: req-123');
    // The request id is for a support request: folded under Details until asked for.
    assert.equal(await error.locator('.request-id').isVisible(), false);
    await error.getByText('Details').click();
    assert.equal(await error.locator('.request-id').isVisible(), true);
    await error.getByRole('button', { name: 'Set authorization key' }).click();
    await error.getByRole('button', { name: 'Show logs' }).click();
    assert.deepEqual(await view.postedOfType('errorAction'), [
      { type: 'errorAction', action: 'setKey', turnId: 'a4' },
      { type: 'errorAction', action: 'openLogs', turnId: 'a4' },
    ]);
  });

  it('offers Regenerate on the last reply only, and not while busy', async () => {
    await view.send(state({ turns: [userTurn('u1', 'a'), assistantTurn('a1', 'b'), userTurn('u2', 'c'), assistantTurn('a2', 'd')] }));
    const visible = () => view.page.locator('.regenerate:visible').count();
    assert.equal(await visible(), 1);
    assert.equal(await view.page.locator('.turn-assistant').nth(1).locator('.regenerate:visible').count(), 1);
    await view.page.locator('.regenerate:visible').click();
    assert.deepEqual(await view.postedOfType('regenerate'), [{ type: 'regenerate', turnId: 'a2' }]);
    await view.send({ type: 'busy', busy: true });
    assert.equal(await visible(), 0);
    await view.send({ type: 'turnAdded', conversationId: 'c1', turn: assistantTurn('a3', '', { status: 'streaming' }) });
    await view.send({ type: 'turnUpdated', turn: assistantTurn('a3', 'done') });
    await view.send({ type: 'busy', busy: false });
    assert.equal(await view.page.locator('.turn-assistant').nth(2).locator('.regenerate:visible').count(), 1);
    assert.equal(await visible(), 1);
  });

  it('every finished reply with text has Copy reply, which posts its turn id and says it copied', async () => {
    const pictureOnly = assistantTurn('a0', '\uFFFC', { images: [servedPicture(view.origin, 'f1')] });
    await view.send(
      state({
        turns: [
          userTurn('u0', 'draw'),
          pictureOnly,
          userTurn('u1', 'a'),
          assistantTurn('a1', 'first **answer**'),
          userTurn('u2', 'c'),
          assistantTurn('a2', '', { status: 'stopped' }),
        ],
      }),
    );
    const copyButtons = view.page.getByRole('button', { name: 'Copy reply' });
    assert.equal(await copyButtons.count(), 1, 'a reply that is only a picture, or an empty stopped one, has nothing to copy');
    await copyButtons.click();
    assert.deepEqual(await view.postedOfType('copyReply'), [{ type: 'copyReply', turnId: 'a1' }]);
    assert.equal(await view.page.locator('.turn-assistant').nth(1).locator('.copy-reply').getAttribute('aria-label'), 'Copied');
    await view.send({ type: 'turnAdded', conversationId: 'c1', turn: assistantTurn('a3', 'partial', { status: 'streaming' }) });
    assert.equal(await view.page.locator('.turn-assistant').nth(3).locator('.copy-reply').count(), 0, 'not while it is being written');
    await view.send({ type: 'turnUpdated', turn: assistantTurn('a3', 'partial and done') });
    assert.equal(await view.page.locator('.turn-assistant').nth(3).locator('.copy-reply').count(), 1);
  });

  it('a reply that proposes code offers Do it in Agent mode, which posts its turn id; one without code does not', async () => {
    await view.send(
      state({
        turns: [
          userTurn('u1', 'What is a retry?'),
          assistantTurn('a1', 'Asking again after a failure.'),
          userTurn('u2', 'Add a retry to upload()'),
          assistantTurn('a2', 'Wrap the call:\n\n```ts\nawait retry(() => upload(file));\n```'),
        ],
      }),
    );
    const agentButtons = view.page.locator('.agent-mode');
    assert.equal(await agentButtons.count(), 1, 'only the reply with code');
    assert.match((await agentButtons.getAttribute('aria-label')) ?? '', /^Do it in Agent mode/);
    await agentButtons.click();
    assert.deepEqual(await view.postedOfType('doInAgentMode'), [{ type: 'doInAgentMode', turnId: 'a2' }]);
  });

  it('offers Get an answer on a message left without a reply at the end, and not while busy', async () => {
    await view.send(state({ turns: [userTurn('u1', 'a'), assistantTurn('a1', 'b'), userTurn('u2', 'Explain this')] }));
    const getAnswer = view.page.getByRole('button', { name: 'Get an answer' });
    assert.equal(await getAnswer.count(), 1, 'on the last message only');
    await view.send({ type: 'busy', busy: true });
    assert.equal(await getAnswer.count(), 0, 'not while a reply is being written');
    await view.send({ type: 'busy', busy: false });
    await getAnswer.click();
    assert.deepEqual(await view.postedOfType('regenerate'), [{ type: 'regenerate', turnId: 'u2' }]);
    await view.send({ type: 'turnAdded', conversationId: 'c1', turn: assistantTurn('a2', '', { status: 'streaming' }) });
    assert.equal(await getAnswer.count(), 0, 'gone once the reply starts');
  });

  it('saves the draft (debounced) and restores it from the state message', async () => {
    await view.send(state({ draft: 'from host' }));
    const input = view.page.locator('textarea');
    assert.equal(await input.inputValue(), 'from host');
    await input.fill('');
    await input.pressSequentially('abc', { delay: 20 });
    assert.deepEqual(await view.postedOfType('draft'), [], 'not yet: debounced');
    await view.page.waitForTimeout(450);
    assert.deepEqual(
      (await view.postedOfType('draft')).map((message) => message.text),
      ['abc'],
      'one draft message for the burst',
    );
    assert.deepEqual(await view.page.evaluate(() => (window.__state as { draft: string }).draft), 'abc');
  });

  it('keeps what was typed just before New chat or opening another conversation', async () => {
    await view.send(state({ conversationId: 'c1', draft: '' }));
    const input = view.page.locator('textarea');
    await input.click();
    await view.page.keyboard.type('unsent');
    await view.page.getByRole('button', { name: 'New chat' }).click();
    // The host answers at once, with the draft as it last heard of it (the view reports it debounced).
    await view.send(state({ conversationId: 'c2', draft: '' }));
    assert.equal(await input.inputValue(), 'unsent');
    await input.click();
    await view.page.keyboard.type(' words');
    await view.send(state({ conversationId: 'c1', draft: 'unsent' }));
    assert.equal(await input.inputValue(), 'unsent words');
    await view.page.waitForTimeout(450);
    assert.equal((await view.postedOfType('draft')).at(-1)?.text, 'unsent words', 'the host gets the latest draft');
  });

  it('restores draft and scroll position from getState after being hidden', async () => {
    await harness.reopen({ savedState: { draft: 'unsent words', draftAt: 2_000, scrollTop: 120, pinned: false } });
    const turns = Array.from({ length: 12 }, (_, i) => [userTurn(`u${i}`, `question ${i}`), assistantTurn(`a${i}`, `answer ${i}\n\n`.repeat(4))]).flat();
    await view.send(state({ turns, draft: 'older host draft', draftAt: 1_000 }));
    assert.equal(await view.page.locator('textarea').inputValue(), 'unsent words');
    assert.deepEqual(await view.postedOfType('draft'), [{ type: 'draft', text: 'unsent words', at: 2_000 }], 'the host is told of the newer draft');
    assert.equal(await view.page.locator('.scroller').evaluate((s) => Math.round(s.scrollTop)), 120);
    assert.equal(await view.page.locator('.jump-to-latest').isVisible(), true);
  });

  it('keeps the draft of a saved state whose other fields are damaged, and ignores those', async () => {
    await harness.reopen({
      savedState: { draft: 'unsent words', draftAt: 2_000, scrollTop: 'far down', pinned: 'no', editing: { turnId: 'u3', text: 'changed' } },
    });
    const turns = Array.from({ length: 12 }, (_, i) => [userTurn(`u${i}`, `question ${i}`), assistantTurn(`a${i}`, `answer ${i}\n\n`.repeat(4))]).flat();
    await view.send(state({ turns, draft: 'older host draft', draftAt: 1_000 }));
    assert.equal(await view.page.locator('textarea').inputValue(), 'unsent words');
    assert.equal(await view.page.locator('.jump-to-latest').isVisible(), false, 'shown at the latest message, as with no saved position');
    assert.equal(await view.page.locator('.edit-bar').isVisible(), false, 'no question is being edited');
  });

  it("after a window reload, takes the host's draft over an older one VS Code restored with the view", async () => {
    // Seen in code-server: after a reload the webview state can be one saved before the last words typed.
    await harness.reopen({ savedState: { draft: '', draftAt: 1_000 } });
    await view.send(state({ draft: 'typed after the state VS Code kept', draftAt: 5_000 }));
    assert.equal(await view.page.locator('textarea').inputValue(), 'typed after the state VS Code kept');
    assert.deepEqual(await view.postedOfType('draft'), [], "the host's draft is not overwritten");
    assert.deepEqual(await view.page.evaluate(() => window.__state), { draft: 'typed after the state VS Code kept', draftAt: 5_000 });
  });

  it('keeps the view at the bottom while streaming unless the user scrolls up', async () => {
    const turns = Array.from({ length: 8 }, (_, i) => [userTurn(`u${i}`, `question ${i}`), assistantTurn(`a${i}`, `answer ${i}\n\n`.repeat(3))]).flat();
    await view.send(state({ turns, busy: true }));
    const scroller = view.page.locator('.scroller');
    const distanceFromBottom = () => scroller.evaluate((s) => s.scrollHeight - s.scrollTop - s.clientHeight);
    assert.ok((await distanceFromBottom()) < 2, 'starts at the bottom');
    await view.send({ type: 'turnAdded', conversationId: 'c1', turn: assistantTurn('s', '', { status: 'streaming' }) });
    for (let i = 0; i < 10; i++) await view.send({ type: 'delta', turnId: 's', text: `Line ${i} of the reply.\n\n` });
    assert.ok((await distanceFromBottom()) < 2, 'follows the reply');
    assert.equal(await view.page.locator('.jump-to-latest').isVisible(), false);
    await scroller.hover();
    await view.page.mouse.wheel(0, -300);
    await view.page.waitForTimeout(100);
    for (let i = 0; i < 10; i++) await view.send({ type: 'delta', turnId: 's', text: `More ${i}.\n\n` });
    assert.ok((await distanceFromBottom()) > 200, 'stays where the user scrolled');
    const jump = view.page.locator('.jump-to-latest');
    assert.equal(await jump.isVisible(), true);
    assert.equal(await jump.getAttribute('aria-label'), 'Jump to latest');
    await jump.click();
    await view.settle();
    assert.ok((await distanceFromBottom()) < 2);
    assert.equal(await jump.isVisible(), false);
    // The keyboard too, even when the key comes in the same frame as new text.
    await scroller.focus();
    await view.page.evaluate(async () => {
      window.postMessage({ type: 'delta', turnId: 's', text: 'Pressed.\n\n' }, '*');
      // After the frame that drew the text and scrolled to it, before that scroll's event.
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      const scroller = document.querySelector('.scroller');
      scroller?.dispatchEvent(new KeyboardEvent('keydown', { key: 'PageUp', bubbles: true }));
      scroller?.scrollBy(0, -400);
    });
    for (let i = 0; i < 5; i++) await view.send({ type: 'delta', turnId: 's', text: `Again ${i}.\n\n` });
    assert.ok((await distanceFromBottom()) > 200, 'stays where the keyboard scrolled');
    assert.equal(await jump.isVisible(), true);
  });

  it("opens history when Show Chat History is chosen in the view's title bar", async () => {
    await view.send(state({ conversationId: 'c2' }));
    await view.send({ type: 'openHistory' });
    const dialog = view.page.getByRole('dialog');
    await dialog.waitFor();
    assert.deepEqual(await view.postedOfType('showHistory'), [{ type: 'showHistory' }], 'the list is asked for');
    await view.send({ type: 'history', conversations: [{ id: 'c2', title: 'Current chat', updatedAt: Date.UTC(2025, 4, 17) }] });
    assert.deepEqual(await dialog.locator('.history-title').allTextContents(), ['Current chat']);
    await view.page.keyboard.press('Escape');
    assert.equal(await dialog.isVisible(), false);
  });

  it('shows history, opens and deletes conversations from the keyboard', async () => {
    await view.send(state({ conversationId: 'c2' }));
    const historyButton = view.page.getByRole('button', { name: 'Chat history' });
    await historyButton.click();
    assert.deepEqual(await view.postedOfType('showHistory'), [{ type: 'showHistory' }]);
    const dialog = view.page.getByRole('dialog');
    assert.equal(await dialog.isVisible(), true);
    assert.equal(await dialog.locator('.history-status').textContent(), 'Loading…');
    const now = Date.UTC(2025, 4, 17, 12, 30);
    await view.send({
      type: 'history',
      conversations: [
        { id: 'c1', title: 'Старый разговор', updatedAt: now - 86_400_000 },
        { id: 'c2', title: 'Current chat', updatedAt: now },
        { id: 'c3', title: '', updatedAt: now - 1000 },
      ],
    });
    const titles = await dialog.locator('.history-title').allTextContents();
    assert.deepEqual(titles, ['Current chat', 'Untitled chat', 'Старый разговор'], 'newest first');
    assert.equal(await dialog.locator('.history-open').first().getAttribute('aria-current'), 'true');
    assert.ok(((await dialog.locator('.history-date').first().textContent()) ?? '').includes('2025'));
    // Keyboard: focus starts in the filter; ArrowDown twice to the second row, delete it with its button, then open.
    assert.equal(await dialog.getByRole('searchbox', { name: 'Filter chats by title' }).evaluate((input) => input === document.activeElement), true);
    await view.page.keyboard.press('ArrowDown');
    await view.page.keyboard.press('ArrowDown');
    await view.page.keyboard.press('Tab');
    await view.page.keyboard.press('Enter');
    assert.deepEqual(await view.postedOfType('deleteConversation'), [{ type: 'deleteConversation', conversationId: 'c3' }]);
    assert.equal(await dialog.locator('.history-item').count(), 2);
    await view.page.keyboard.press('Enter');
    assert.deepEqual(await view.postedOfType('openConversation'), [{ type: 'openConversation', conversationId: 'c1' }]);
    assert.equal(await dialog.isVisible(), false, 'opening closes the dialog');
    // Escape closes and gives focus back.
    await historyButton.click();
    await view.page.keyboard.press('Escape');
    assert.equal(await dialog.isVisible(), false);
    assert.equal(await historyButton.evaluate((b) => b === document.activeElement), true);
  });

  it('filters the history by title as the user types, and Enter opens the first match', async () => {
    await view.send(state({ conversationId: 'c0' }));
    await view.page.getByRole('button', { name: 'Chat history' }).click();
    const dialog = view.page.getByRole('dialog');
    const now = Date.UTC(2025, 4, 17, 12, 30);
    await view.send({
      type: 'history',
      conversations: [
        { id: 'c1', title: 'Чтение файла построчно в Node.js', updatedAt: now },
        { id: 'c2', title: 'Retry policy of the upload client', updatedAt: now - 1000 },
        { id: 'c3', title: 'Node.js streams and backpressure', updatedAt: now - 2000 },
      ],
    });
    const shown = () => dialog.locator('.history-item:visible .history-title').allTextContents();
    await view.page.keyboard.type('NODE');
    assert.deepEqual(await shown(), ['Чтение файла построчно в Node.js', 'Node.js streams and backpressure'], 'any case');
    await view.page.keyboard.type(' ФАЙЛ');
    assert.deepEqual(await shown(), ['Чтение файла построчно в Node.js'], 'every word, Cyrillic too');
    await view.page.keyboard.type('xyz');
    assert.deepEqual(await shown(), []);
    assert.equal(await dialog.locator('.history-status').textContent(), 'No chat title contains “NODE ФАЙЛxyz”.');
    await view.page.locator('.history-filter').fill('stream');
    // The host's list after a deletion elsewhere keeps the filter.
    await view.send({
      type: 'history',
      conversations: [
        { id: 'c2', title: 'Retry policy of the upload client', updatedAt: now - 1000 },
        { id: 'c3', title: 'Node.js streams and backpressure', updatedAt: now - 2000 },
      ],
    });
    assert.deepEqual(await shown(), ['Node.js streams and backpressure']);
    // Up from the first row returns to the filter; Enter there opens the first match.
    await view.page.keyboard.press('ArrowDown');
    await view.page.keyboard.press('ArrowUp');
    assert.equal(await view.page.locator('.history-filter').evaluate((input) => input === document.activeElement), true);
    await view.page.keyboard.press('Enter');
    assert.deepEqual(await view.postedOfType('openConversation'), [{ type: 'openConversation', conversationId: 'c3' }]);
    assert.equal(await dialog.isVisible(), false);
    // Opened again, the filter starts empty.
    await view.page.getByRole('button', { name: 'Chat history' }).click();
    assert.equal(await view.page.locator('.history-filter').inputValue(), '');
  });

  it('New chat and the model picker post their messages', async () => {
    await view.send(state());
    await view.page.getByRole('button', { name: 'New chat' }).click();
    await view.page.locator('.model-select').selectOption('GigaChat-2-Max');
    assert.deepEqual(await view.postedOfType('newChat'), [{ type: 'newChat' }]);
    assert.deepEqual(await view.postedOfType('selectModel'), [{ type: 'selectModel', model: 'GigaChat-2-Max' }]);
    await view.send({ type: 'models', models: ['A', 'B'], model: 'B' });
    assert.deepEqual(await view.page.locator('.model-select option').allTextContents(), ['A', 'B']);
    assert.equal(await view.page.locator('.model-select').inputValue(), 'B');
  });

  it('welcomes a user without a key and asks for one', async () => {
    await view.send(state({ hasKey: false }));
    const welcome = view.page.locator('.welcome');
    assert.equal(await welcome.isVisible(), true);
    assert.match((await welcome.textContent()) ?? '', /authorization key/);
    assert.match((await welcome.textContent()) ?? '', /developers\.sber\.ru/);
    assert.equal(await view.page.locator('textarea').isDisabled(), true);
    await welcome.getByRole('button', { name: 'Set authorization key' }).click();
    assert.deepEqual(await view.postedOfType('errorAction'), [{ type: 'errorAction', action: 'setKey' }]);
    await view.send({ type: 'keyState', hasKey: true });
    assert.equal(await welcome.isVisible(), false);
    assert.equal(await view.page.locator('.empty-state').isVisible(), true);
    assert.equal(await view.page.locator('textarea').isDisabled(), false);
  });

  it('fills the input with an example prompt', async () => {
    await view.send(state());
    await view.page.locator('.example').nth(1).click();
    assert.equal(await view.page.locator('textarea').inputValue(), webviewStrings.example2);
    assert.equal(await view.page.locator('textarea').evaluate((t) => t === document.activeElement), true);
    assert.deepEqual(await view.postedOfType('send'), [], 'filled, not sent');
  });

  it('an empty chat says this chat answers and Agent mode changes files, and its button asks for Agent mode', async () => {
    await view.send(state());
    assert.equal(await view.page.locator('.empty-state .agent-hint span').first().textContent(), webviewStrings.emptyAgentHint);
    await view.page.getByRole('button', { name: webviewStrings.openAgentMode }).click();
    assert.deepEqual(await view.postedOfType('openAgentMode'), [{ type: 'openAgentMode' }]);
    await view.send(state({ turns: [assistantTurn('a', 'an answer')] }));
    assert.equal(await view.page.locator('.agent-hint').isVisible(), false, 'a chat with turns shows no hint');
  });

  it('focuses the input on focusInput', async () => {
    await view.send(state());
    await view.page.getByRole('button', { name: 'New chat' }).focus();
    await view.send({ type: 'focusInput' });
    assert.equal(await view.page.locator('textarea').evaluate((t) => t === document.activeElement), true);
  });

  it('acts on no invalid host message: says part of the chat could not be shown, and asks for it again once', async () => {
    await view.send(state({ turns: [assistantTurn('a', 'kept')] }));
    const invalid: unknown[] = [
      null,
      'state',
      { type: 'nope' },
      { type: 'delta', turnId: 'a' },
      { type: 'turnAdded', conversationId: 'c1', turn: { id: 'x', role: 'system', content: 'x', status: 'done' } },
      { type: 'turnUpdated', turn: { ...assistantTurn('a', 'changed'), images: [{ fileId: 'f', dataUri: 'data:image/png;base64,iVBORw0KGgo=' }] } },
      { type: 'history', conversations: [{ id: '', title: 't', updatedAt: 1 }] },
    ];
    for (const message of invalid) await view.send(message);
    assert.equal(await text('.turn-body'), 'kept\n');
    assert.equal(await view.page.locator('.turn').count(), 1);
    assert.equal(view.consoleWarnings.filter((w) => w.includes('could not read a message')).length, invalid.length);
    assert.deepEqual(await view.postedOfType('resync'), [
      { type: 'resync', failed: 'unknown', issues: '(message): Invalid input: expected object, received null' },
    ]);
    assert.equal(await view.page.locator('.sync-notice').isVisible(), true);
  });

  it('uses the localized strings from data-strings', async () => {
    await harness.reopen({ strings: { send: 'Отправить', newChat: 'Новый чат', bogus: 1 as unknown as string }, lang: 'ru' });
    await view.send(state());
    assert.equal(await view.page.locator('.send-button').getAttribute('aria-label'), 'Отправить');
    assert.equal(await view.page.getByRole('button', { name: 'Новый чат' }).count(), 1);
    assert.equal(await view.page.getByRole('button', { name: 'Chat history' }).count(), 1, 'missing keys fall back to English');
  });

  it('says counts in Russian as a native speaker does', async () => {
    const russian = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../media/l10n/bundle.l10n.ru.json'), 'utf8')) as Record<string, string>;
    await harness.reopen({ strings: { tokens: russian[webviewStrings.tokens] }, lang: 'ru' });
    const usage = (totalTokens: number) => ({ promptTokens: 1, completionTokens: totalTokens - 1, totalTokens });
    await view.send(state({ turns: [21, 22, 25, 1234].map((total, n) => assistantTurn(`a${n}`, 'Ответ', { usage: usage(total) })) }));
    assert.deepEqual(await view.page.locator('.usage').allTextContents(), ['21 токен', '22 токена', '25 токенов', '1\u00a0234 токена']);
  });
});
