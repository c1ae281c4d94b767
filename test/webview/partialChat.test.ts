import * as assert from 'node:assert/strict';
import type { Turn } from '../../src/shared/protocol';
import { webviewStrings } from '../../src/shared/strings';
import { assistantTurn, servedPicture, state, userTurn } from './fixtures';
import { useView, View } from './harness';

/** Questions and replies `from`..`to - 1`, as the host numbers its turns. */
function turns(from: number, to: number): Turn[] {
  return Array.from({ length: to - from }, (_, k) => {
    const i = from + k;
    return i % 2 === 0 ? userTurn(`t${i}`, `Question ${i}`) : assistantTurn(`t${i}`, `Reply ${i}\n\n${'A line of the reply that takes some room. '.repeat(3)}`);
  });
}

describe('chat webview: a chat it cannot show whole', function () {
  this.timeout(60_000);
  let view: View;
  const harness = useView((opened) => (view = opened));

  const notice = () => view.page.locator('.sync-notice');
  const texts = (selector: string) => view.page.locator(selector).allTextContents();

  describe('a message the view cannot read', () => {
    /** A state for chat B that breaks one of the view's limits (the host once sent such a state for 2,001 turns). */
    const oversizedStateOfB = () => state({ conversationId: 'chat-b', turns: Array.from({ length: 2_001 }, (_, i) => userTurn(`b${i}`, `B question ${i}`)) });

    it('is not ignored: the view says so, shows none of the chat it showed before, and asks for the chat again', async () => {
      await view.send(state({ conversationId: 'chat-a', turns: [userTurn('a1', 'A question'), assistantTurn('a2', 'A reply')] }));
      await view.send(oversizedStateOfB());

      assert.equal(await notice().isVisible(), true);
      assert.equal(await notice().getAttribute('role'), 'alert');
      assert.equal(await notice().locator('.sync-notice-text').textContent(), webviewStrings.partNotShown);
      assert.equal(await view.page.locator('.turn').count(), 0, "chat A's turns are not left under chat B");
      const [resync] = await view.postedOfType('resync');
      assert.equal(resync.failed, 'state');
      assert.match(resync.issues, /turns/);

      // The next question is chat B's, and shows as such: not under chat A's turns.
      await view.send({ type: 'turnAdded', conversationId: 'chat-b', turn: userTurn('b-next', 'The next question') });
      assert.deepEqual(await texts('.turn-user .user-text'), ['The next question']);

      // The host answers with a state that fits: chat B, and the notice still says what happened until dismissed.
      await view.send(state({ conversationId: 'chat-b', turns: [userTurn('b0', 'B question'), userTurn('b-next', 'The next question')], earlierTurns: 2_000 }));
      assert.deepEqual(await texts('.turn-user .user-text'), ['B question', 'The next question']);
      assert.equal(await notice().isVisible(), true);
      await notice().getByRole('button', { name: webviewStrings.dismiss }).click();
      assert.equal(await notice().isVisible(), false);
    });

    it('says so in Russian when the view is in Russian', async () => {
      const ru = 'Часть чата не удалось показать: панель получила данные, которые не смогла прочитать. Чат загружен заново.';
      view = await harness.reopen({ strings: { partNotShown: ru }, lang: 'ru' });
      await view.send(state());
      await view.send(oversizedStateOfB());
      assert.equal(await notice().locator('.sync-notice-text').textContent(), ru);
    });

    it('when the fresh state fails too, says so once and offers the log, and asks no more', async () => {
      await view.send(state({ turns: [userTurn('u1', 'q')] }));
      await view.send({ type: 'turnUpdated', turn: { ...assistantTurn('a1', 'x'), status: 'thinking' } });
      assert.equal((await view.postedOfType('resync')).length, 1);
      await view.send(oversizedStateOfB()); // the answer fails as well
      await view.send({ type: 'delta', turnId: '', text: 'x' });
      await view.send(oversizedStateOfB());
      assert.equal((await view.postedOfType('resync')).length, 1, 'asked once, not in a loop');
      assert.equal(await notice().locator('.sync-notice-text').textContent(), webviewStrings.partStillNotShown);
      await notice().getByRole('button', { name: webviewStrings.actionOpenLogs }).click();
      assert.deepEqual(await view.postedOfType('errorAction'), [{ type: 'errorAction', action: 'openLogs' }]);
    });

    it('a turn for another chat than the one shown is not put under it: the view asks for the chat, without alarming anyone', async () => {
      await view.send(state({ conversationId: 'chat-a', turns: [userTurn('a1', 'A question')] }));
      await view.send({ type: 'turnAdded', conversationId: 'chat-b', turn: userTurn('b1', 'B question') });
      assert.deepEqual(await texts('.turn-user .user-text'), ['A question']);
      assert.equal((await view.postedOfType('resync')).length, 1);
      assert.equal(await notice().isVisible(), false);
    });
  });

  describe('a long conversation, a page at a time', () => {
    const scroller = () => view.page.locator('.scroller');
    const earlier = () => view.page.locator('.load-earlier');
    const topOf = (question: string) =>
      view.page.locator('.user-text', { hasText: new RegExp(`^${question}$`) }).evaluate((text) => text.getBoundingClientRect().top);

    it('scrolling near the top asks for the page before, which is put in above without moving what is on screen', async () => {
      await view.send(state({ turns: turns(150, 250), earlierTurns: 150 }));
      assert.deepEqual(await view.postedOfType('loadEarlier'), [], 'at the bottom: nothing asked for yet');
      assert.equal(await earlier().textContent(), 'Show earlier messages (150)');

      await scroller().evaluate((element) => element.scrollBy(0, -element.scrollHeight / 2));
      await view.settle();
      await scroller().evaluate((element) => (element.scrollTop = 200));
      await view.settle();
      await scroller().evaluate((element) => (element.scrollTop = 100));
      await view.settle();
      assert.deepEqual(await view.postedOfType('loadEarlier'), [{ type: 'loadEarlier', conversationId: 'c1', before: 't150' }], 'asked once');
      assert.equal(await earlier().textContent(), webviewStrings.earlierLoading);

      const before = await topOf('Question 150');
      await view.send({ type: 'earlierPage', conversationId: 'c1', before: 't150', turns: turns(50, 150), earlierTurns: 50, earlierQuestions: [] });
      assert.equal(await view.page.locator('.turn').count(), 200);
      assert.ok(Math.abs((await topOf('Question 150')) - before) <= 2, `the turn on screen stayed where it was: ${before} → ${await topOf('Question 150')}`);
      assert.equal(await earlier().textContent(), 'Show earlier messages (50)');
      assert.equal(await view.page.locator('.sr-only p').last().textContent(), 'Earlier messages shown: 100.');
    });

    it('a page for a transcript that was redrawn meanwhile is not put in', async () => {
      await view.send(state({ turns: turns(150, 152), earlierTurns: 150 }));
      await view.send(state({ conversationId: 'c2', turns: turns(0, 2) }));
      await view.send({ type: 'earlierPage', conversationId: 'c1', before: 't150', turns: turns(50, 150), earlierTurns: 50, earlierQuestions: [] });
      assert.equal(await view.page.locator('.turn').count(), 2);
      assert.equal(await earlier().isVisible(), false, 'the chat shown now has no earlier turns');
    });

    it('the earlier messages button works from the keyboard; a page too short to scroll asks at once', async () => {
      await view.send(state({ turns: turns(150, 152), earlierTurns: 150 }));
      assert.deepEqual(
        await view.postedOfType('loadEarlier'),
        [{ type: 'loadEarlier', conversationId: 'c1', before: 't150' }],
        'nothing to scroll: asked at once',
      );
      await view.send({ type: 'earlierPage', conversationId: 'c1', before: 't150', turns: turns(148, 150), earlierTurns: 148, earlierQuestions: [] });
      await view.settle();
      await view.clearPosted();
      await view.send(state({ turns: turns(0, 250).slice(-120), earlierTurns: 130 })); // a long page: stays at the bottom
      await view.settle();
      assert.deepEqual(await view.postedOfType('loadEarlier'), []);
      await earlier().focus();
      await view.page.keyboard.press('Enter');
      assert.deepEqual(await view.postedOfType('loadEarlier'), [{ type: 'loadEarlier', conversationId: 'c1', before: 't130' }]);
      await view.send({ type: 'earlierPage', conversationId: 'c1', before: 't130', turns: turns(0, 130), earlierTurns: 0, earlierQuestions: [] });
      assert.equal(await earlier().isVisible(), false, 'the first turn is shown: nothing earlier to ask for');
      assert.equal(await view.page.evaluate(() => document.activeElement?.classList.contains('scroller')), true, 'the focus goes on in the transcript');
    });

    it('↑ in the input goes back past the page shown, through the questions before it', async () => {
      await view.send(
        state({
          turns: [userTurn('u9', 'Newest question'), assistantTurn('a9', 'reply')],
          earlierTurns: 8,
          earlierQuestions: ['First question', 'Second question'],
        }),
      );
      const input = view.page.locator('textarea');
      await input.focus();
      for (const expected of ['Newest question', 'Second question', 'First question', 'First question']) {
        await input.press('ArrowUp');
        assert.equal(await input.inputValue(), expected);
      }
    });
  });

  describe('a reply longer than the view shows', () => {
    it('is shown cut, says so and how to get all of it; Copy reply asks the host, which has the whole text', async () => {
      await view.send(state({ turns: [userTurn('u1', 'Write a lot'), assistantTurn('a1', 'Begins here and is cut', { fullLength: 2_000_001 })] }));
      assert.equal(
        await view.page.locator('.turn-assistant .note-cut').textContent(),
        'This reply is too long to show here whole: 22 of its 2,000,001 characters are shown. Copy reply, or Export Chat as Markdown, gives all of it.',
      );
      await view.page.getByRole('button', { name: 'Copy reply' }).click();
      assert.deepEqual(await view.postedOfType('copyReply'), [{ type: 'copyReply', turnId: 'a1' }]);
    });

    it('a streamed reply that reaches the cap ends as a whole turn, with the notice', async () => {
      await view.send(state({ busy: true, turns: [userTurn('u1', 'Write a lot')] }));
      await view.send({ type: 'turnAdded', conversationId: 'c1', turn: assistantTurn('a1', '', { status: 'streaming' }) });
      await view.send({ type: 'delta', turnId: 'a1', text: 'Lots of text, ' });
      await view.send({ type: 'delta', turnId: 'a1', text: 'up to the cap' });
      await view.send({ type: 'turnUpdated', turn: assistantTurn('a1', 'Lots of text, up to the cap', { fullLength: 2_500_000 }) });
      await view.send({ type: 'busy', busy: false });
      const reply = view.page.locator('.turn-assistant');
      assert.equal(await reply.locator('.turn-body').innerText(), 'Lots of text, up to the cap');
      assert.match((await reply.locator('.note-cut').textContent()) ?? '', /27 of its 2,500,000 characters/);
      assert.equal(await reply.getByRole('button', { name: 'Copy reply' }).count(), 1);
      assert.equal(await reply.getAttribute('aria-busy'), null);
    });

    it('a question shown cut says so, and is neither edited nor recalled with ↑ (only its beginning would go)', async () => {
      await view.send(
        state({
          turns: [userTurn('u1', 'Short one'), assistantTurn('a1', 'ok'), userTurn('u2', 'Pasted log…', { fullLength: 300_000 }), assistantTurn('a2', 'ok')],
        }),
      );
      const cut = view.page.locator('.turn-user').nth(1);
      assert.match((await cut.locator('.note-cut').textContent()) ?? '', /11 of its 300,000 characters/);
      assert.equal(await cut.locator('.edit-question').count(), 0);
      await view.page.locator('textarea').focus();
      await view.page.locator('textarea').press('ArrowUp');
      assert.equal(await view.page.locator('textarea').inputValue(), 'Short one');
    });
  });

  describe('pictures it cannot draw', () => {
    it('a picture too large, of a type a browser does not show, or that does not load, is a placeholder that says why and opens it', async () => {
      const content = 'Big: \uFFFC\n\nTIFF: \uFFFC\n\nGone: \uFFFC\n\nFine: \uFFFC';
      await view.send(
        state({
          turns: [
            assistantTurn('a1', content, {
              images: [
                { fileId: 'big', unavailable: 'tooLarge', bytes: 23_400_000 },
                { fileId: 'tiff', unavailable: 'unsupportedType', bytes: 1_000 },
                { fileId: 'gone', src: `${view.origin}/images/gone.png` },
                servedPicture(view.origin, 'fine'),
              ],
              moreImages: 3,
            }),
          ],
        }),
      );
      await view.page.waitForFunction(() => document.querySelectorAll('.image-unavailable').length === 3);
      const problems = await view.page.locator('.image-problem').allTextContents();
      assert.deepEqual(problems, [
        'This picture is too large to show here (22.3\u00a0MB). Open it or save it to see it.',
        webviewStrings.pictureUnsupported,
        webviewStrings.pictureCannotLoad,
      ]);
      assert.equal(await view.page.locator('.reply-image img').count(), 1, 'the picture that loads is drawn');
      await view.page.locator('.reply-image[data-file-id="big"]').getByRole('button', { name: 'Open image' }).click();
      await view.page.locator('.reply-image[data-file-id="tiff"]').getByRole('button', { name: 'Save image' }).click();
      assert.deepEqual(await view.postedOfType('openImage'), [{ type: 'openImage', fileId: 'big' }]);
      assert.deepEqual(await view.postedOfType('saveImage'), [{ type: 'saveImage', fileId: 'tiff' }]);
      assert.equal(
        await view.page.locator('.note-more-pictures').textContent(),
        'This reply has 3 more pictures than the chat shows: at most 16 are shown for a reply.',
      );
    });
  });
});
