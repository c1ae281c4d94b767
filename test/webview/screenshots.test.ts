import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser } from 'playwright-core';
import { webviewStrings } from '../../src/shared/strings';
import { assistantTurn, explainQuestion, richReply, servedPicture, state, userTurn, wideTable } from './fixtures';
import { launchBrowser, repoRoot, startServer, View, type HarnessServer } from './harness';

/**
 * Screenshots of the view in the light and dark themes, written to test-results/webview-*.png for
 * a person to look at (they are not compared with anything).
 */
describe('chat webview: screenshots', function () {
  this.timeout(120_000);
  let browser: Browser;
  let server: HarnessServer;
  const outDir = path.join(repoRoot, 'test-results');

  before(async () => {
    browser = await launchBrowser();
    server = await startServer();
    fs.mkdirSync(outDir, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const conversation = () => [
    userTurn('u1', 'How do I read a file line by line in Node.js?', { contextLabel: 'src/reader.ts:12–40' }),
    assistantTurn('a1', richReply, { usage: { promptTokens: 812, completionTokens: 604, totalTokens: 1416, precachedTokens: 256 } }),
    userTurn('u2', 'Нарисуй кота в стиле акварели', { notice: 'The selection was trimmed to 4,000 lines.' }),
    assistantTurn('a2', 'Вот акварельный кот:\n\n\uFFFC\n\nЕсли хотите, могу изменить цвета.', {
      images: [servedPicture(server.origin, 'img1', { width: 320, height: 200 })],
      usage: { promptTokens: 30, completionTokens: 29, totalTokens: 59 },
    }),
    userTurn('u3', 'Tell me something forbidden'),
    assistantTurn('a3', '', { finishReason: 'blacklist', usage: { promptTokens: 12, completionTokens: 0, totalTokens: 12 } }),
    userTurn('u4', 'Write a long essay'),
    assistantTurn('a4', 'The essay starts here and goes on', { status: 'stopped' }),
    userTurn('u5', 'Try again'),
    assistantTurn('a5', '', {
      status: 'error',
      error: {
        kind: 'auth',
        message: 'The authorization key was rejected by GigaChat. Check that you copied the whole key.',
        actions: ['setKey', 'openAccount', 'openLogs'],
        requestId: '5f0c2a1e-9b7d-4c11-8f3e-2d6a7b9c0e14',
      },
    }),
  ];

  /** A web answer of a reasoning model on the current contract: its thinking folded, links, sources, the model. */
  const webAnswer = () => [
    userTurn('u6', 'What is new in Python? #web'),
    assistantTurn(
      'a6',
      'The JIT got faster [[2]](https://realpython.com/news/), and $E = mc^2$ still holds; the foundation got $1.5 million [[1]](https://docs.python.org/3/).',
      {
        reasoning: 'The user asks what is new in Python: the release notes and the news say it.',
        webSources: [
          { number: 1, url: 'https://docs.python.org/3/', title: 'What’s New in Python', host: 'docs.python.org' },
          { number: 2, url: 'https://realpython.com/news/', title: 'Python News and Releases', host: 'realpython.com' },
        ],
        model: 'GigaChat-3-Ultra:32.3.18.5',
        usage: { promptTokens: 23767, completionTokens: 570, totalTokens: 24337, precachedTokens: 2557 },
      },
    ),
  ];

  async function shoot(view: View, name: string): Promise<void> {
    await view.settle();
    // Let the data-URI images decode so they appear in the picture.
    await view.page.evaluate(() => Promise.all([...document.images].map((image) => image.decode().catch(() => undefined))));
    const file = path.join(outDir, `webview-${name}.png`);
    await view.page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
    assert.ok(fs.statSync(file).size > 1000);
  }

  /** The view's strings in Russian, as the host hands them over from the translations. */
  function russianStrings(): Record<string, string> {
    const russian = JSON.parse(fs.readFileSync(path.join(repoRoot, 'media/l10n/bundle.l10n.ru.json'), 'utf8')) as Record<string, string>;
    return Object.fromEntries(Object.entries(webviewStrings).flatMap(([key, english]) => (russian[english] ? [[key, russian[english]]] : [])));
  }

  // A long answer with a table in a narrow panel, and an Explain question with its code opened.
  for (const [theme, lang] of [
    ['dark', 'en'],
    ['light', 'ru'],
  ] as const) {
    it(`a long answer with a table, and Explain, in ${lang} (${theme})`, async () => {
      const view = await View.open(browser, server, { theme, lang, strings: lang === 'ru' ? russianStrings() : {}, width: 340, height: 760 });
      const answer = `${richReply.split('\n\n| Способ')[0]}\n\n${wideTable}`;
      await view.send(
        state({ turns: [explainQuestion(), assistantTurn('a1', answer, { usage: { promptTokens: 412, completionTokens: 904, totalTokens: 1316 } })] }),
      );
      await view.page.locator('.explained-code summary').click();
      await view.page.locator('.scroller').evaluate((scroller) => {
        scroller.scrollTop = 0;
      });
      await shoot(view, `${lang}-${theme}-explain`);
      await view.page.locator('.turn-assistant .table-scroll').scrollIntoViewIfNeeded();
      await shoot(view, `${lang}-${theme}-table`);
      await view.page.locator('.turn-assistant .table-scroll').evaluate((box) => box.scrollBy({ left: 200, behavior: 'instant' }));
      await shoot(view, `${lang}-${theme}-table-scrolled`);
      assert.deepEqual(view.pageErrors, []);
      assert.deepEqual(await view.cspViolations(), []);
      await view.close();
    });
  }

  for (const theme of ['dark', 'light'] as const) {
    it(`${theme} theme`, async () => {
      const view = await View.open(browser, server, { theme, height: 900 });

      await view.send(state({ turns: conversation() }));
      await view.page.locator('.scroller').evaluate((scroller) => {
        scroller.scrollTop = 0;
      });
      await shoot(view, `${theme}-reply`);

      await view.page.locator('.turn-assistant').nth(1).scrollIntoViewIfNeeded();
      await view.page.locator('.reply-image').hover();
      await shoot(view, `${theme}-notes`);

      await view.page.locator('.scroller').evaluate((scroller) => {
        scroller.scrollTop = scroller.scrollHeight;
      });
      await shoot(view, `${theme}-error`);

      // Editing a question: it is marked, the turns it would replace are dimmed, the bar says so.
      await view.page.locator('.turn-user').nth(3).locator('.edit-question').click();
      await view.page.locator('textarea').fill('Write a short essay');
      await shoot(view, `${theme}-editing`);
      await view.page.locator('textarea').press('Escape');

      await view.send(state({ turns: webAnswer(), conversationId: 'c-web' }));
      await shoot(view, `${theme}-web`);

      // Streaming: a reply half-way through, the input holding the next question, Stop showing.
      await view.send(state({ turns: conversation().slice(0, 2), busy: true, conversationId: 'c-stream' }));
      await view.send({ type: 'turnAdded', conversationId: 'c-stream', turn: userTurn('u9', 'And with async iterators in Python?') });
      await view.send({ type: 'turnAdded', conversationId: 'c-stream', turn: assistantTurn('a9', '', { status: 'streaming' }) });
      await view.send({
        type: 'delta',
        turnId: 'a9',
        text: 'In Python, a file object is already an iterator over its lines:\n\n```python\nwith open("data.txt") as f:\n    for line in f:\n        print(line',
      });
      await view.send({ type: 'delta', turnId: 'a9', text: '.rstrip())\n```\n\nFor **asynchronous** code, use the `aiofiles` package' });
      await view.page.locator('textarea').fill('Can you also show the error handling?');
      await shoot(view, `${theme}-streaming`);

      // Scrolled up while streaming: the jump button.
      await view.page.locator('.scroller').hover();
      await view.page.mouse.wheel(0, -600);
      await view.page.waitForTimeout(100);
      await view.send({ type: 'delta', turnId: 'a9', text: ', which wraps the file in async methods.\n\n' });
      await shoot(view, `${theme}-jump`);

      // A new chat with code attached from the editor, waiting for the question.
      const attachments = [
        { id: 's1', label: 'client.ts:40–72', title: 'src/core/service/client.ts, lines 40–72' },
        { id: 's2', label: 'retry.ts:12', title: 'src/core/service/retry.ts, line 12' },
      ];
      await view.send(state({ turns: [], conversationId: 'c-empty', attachments }));
      await view.page.locator('textarea').fill('');
      await shoot(view, `${theme}-empty`);

      await view.page.getByRole('button', { name: 'Chat history' }).click();
      const now = Date.now();
      await view.send({
        type: 'history',
        conversations: [
          { id: 'c-empty', title: 'New chat', updatedAt: now },
          { id: 'h1', title: 'Чтение файла построчно в Node.js', updatedAt: now - 3_600_000 },
          { id: 'h2', title: 'Explain the retry policy in client.ts and suggest how to test it', updatedAt: now - 86_400_000 * 2 },
          { id: 'h3', title: 'Акварельный кот', updatedAt: now - 86_400_000 * 9 },
        ],
      });
      await view.page.keyboard.press('ArrowDown');
      await shoot(view, `${theme}-history`);
      await view.page.keyboard.press('Escape');

      // A long chat shown a page at a time (the page before on its way), a reply shown cut, a picture
      // too large to draw, and the notice that part of the chat could not be shown.
      const longChat = state({
        conversationId: 'c-long',
        earlierTurns: 2_400,
        turns: [
          userTurn('l1', 'Paste the whole log back to me'),
          assistantTurn('l2', 'Here it is:\n\n```\n2025-11-25 10:00:01 INFO started\n2025-11-25 10:00:02 INFO listening on :8080\n```', {
            fullLength: 2_000_001,
          }),
          userTurn('l3', 'Draw it as a poster'),
          assistantTurn('l4', 'Your poster:\n\n\uFFFC', { images: [{ fileId: 'poster', unavailable: 'tooLarge', bytes: 23_400_000 }] }),
        ],
      });
      await view.send({ ...longChat, turns: 'unreadable' });
      await view.send(longChat);
      await shoot(view, `${theme}-partial`);

      await view.send(state({ hasKey: false, conversationId: 'c-nokey' }));
      await shoot(view, `${theme}-welcome`);

      assert.deepEqual(view.pageErrors, []);
      assert.deepEqual(await view.cspViolations(), []);
      assert.deepEqual(view.externalRequests, []);
      await view.close();
    });
  }
});
