import * as assert from 'node:assert/strict';
import { assistantTurn, state, userTurn } from './fixtures';
import { useView, View } from './harness';

/**
 * A keyboard user never loses their place: when the control they used goes away or is disabled,
 * focus lands somewhere they can go on from, and the transcript itself can be reached and scrolled.
 */
describe('chat webview: keyboard', function () {
  this.timeout(60_000);
  let view: View;
  useView((opened) => (view = opened));

  const input = () => view.page.locator('textarea');
  const isFocused = (selector: string) => view.page.locator(selector).evaluate((e) => e === document.activeElement);

  /** Enough turns to scroll through. */
  const longConversation = () =>
    Array.from({ length: 10 }, (_, i) => [userTurn(`u${i}`, `question ${i}`), assistantTurn(`a${i}`, `answer ${i}\n\n`.repeat(4))]).flat();

  it('after Stop from the keyboard, typing goes on in the input', async () => {
    await view.send(state({ busy: true }));
    await view.page.locator('.send-button').focus();
    await view.page.keyboard.press('Enter');
    assert.deepEqual(await view.postedOfType('stop'), [{ type: 'stop' }]);
    // The reply ends: the button becomes Send, disabled as the input is empty.
    await view.send({ type: 'busy', busy: false });
    assert.equal(await isFocused('textarea'), true, 'focus moved to the input, not lost');
    await view.page.keyboard.type('next');
    assert.equal(await input().inputValue(), 'next');
  });

  it('after Send from the keyboard, typing goes on in the input', async () => {
    await view.send(state());
    await input().click();
    await view.page.keyboard.type('hello');
    await view.page.keyboard.press('Tab');
    assert.equal(await isFocused('.send-button'), true);
    await view.page.keyboard.press('Enter');
    assert.deepEqual(await view.postedOfType('send'), [{ type: 'send', text: 'hello' }]);
    assert.equal(await isFocused('textarea'), true, 'the emptied input disabled Send: focus moved to the input');
    await view.send({ type: 'busy', busy: true });
    await view.page.keyboard.type('more');
    assert.equal(await input().inputValue(), 'more');
  });

  it('after Regenerate from the keyboard, focus is in the input while the new reply streams', async () => {
    await view.send(state({ turns: [userTurn('u1', 'question'), assistantTurn('a1', 'first answer')] }));
    await view.page.getByRole('button', { name: 'Regenerate reply' }).focus();
    await view.page.keyboard.press('Enter');
    assert.deepEqual(await view.postedOfType('regenerate'), [{ type: 'regenerate', turnId: 'a1' }]);
    // The host redraws the conversation with the new reply in place of the old one.
    await view.send(state({ turns: [userTurn('u1', 'question'), assistantTurn('a2', '', { status: 'streaming' })], busy: true }));
    await view.send({ type: 'busy', busy: true });
    assert.equal(await isFocused('textarea'), true);
    await view.page.keyboard.type('follow-up');
    assert.equal(await input().inputValue(), 'follow-up');
  });

  it('after Retry on an error from the keyboard, focus is in the input', async () => {
    const failed = assistantTurn('a1', '', { status: 'error', error: { kind: 'network', message: 'The network is down.', actions: ['retry', 'openLogs'] } });
    await view.send(state({ turns: [userTurn('u1', 'question'), failed] }));
    await view.page.getByRole('button', { name: 'Retry' }).focus();
    await view.page.keyboard.press('Space');
    assert.deepEqual(await view.postedOfType('errorAction'), [{ type: 'errorAction', action: 'retry', turnId: 'a1' }]);
    await view.send(state({ turns: [userTurn('u1', 'question'), assistantTurn('a2', '', { status: 'streaming' })], busy: true }));
    assert.equal(await isFocused('textarea'), true);
    await view.page.keyboard.type('x');
    assert.equal(await input().inputValue(), 'x');
  });

  it('after Jump to latest from the keyboard, focus is on the transcript, which the keys go on scrolling', async () => {
    await view.send(state({ turns: longConversation() }));
    const scroller = view.page.locator('.scroller');
    const scrollTop = () => scroller.evaluate((s) => s.scrollTop);
    await scroller.evaluate((s) => s.scrollBy(0, -600));
    await view.settle();
    const jump = view.page.getByRole('button', { name: 'Jump to latest' });
    assert.equal(await jump.isVisible(), true);
    await jump.focus();
    await view.page.keyboard.press('Enter');
    await view.settle();
    assert.equal(await jump.isVisible(), false, 'at the bottom, the button is gone');
    assert.equal(await isFocused('.scroller'), true, 'focus moved to the transcript, not lost');
    const bottom = await scrollTop();
    await view.page.keyboard.press('PageUp');
    await view.page.waitForFunction((top) => document.querySelector('.scroller')!.scrollTop < top - 100, bottom);
  });

  it('after scrolling up, a question sent is brought into view and its answer followed again', async () => {
    await view.send(state({ turns: longConversation() }));
    const scroller = view.page.locator('.scroller');
    await scroller.evaluate((s) => s.scrollBy(0, -600));
    await view.settle();
    await view.send({ type: 'turnAdded', conversationId: 'c1', turn: userTurn('u10', 'the new question') });
    await view.send({ type: 'turnAdded', conversationId: 'c1', turn: assistantTurn('a10', '', { status: 'streaming' }) });
    await view.send({ type: 'delta', turnId: 'a10', text: 'A long answer.\n\n'.repeat(40) });
    await view.settle();
    const atBottom = () => scroller.evaluate((s) => s.scrollHeight - s.clientHeight - s.scrollTop < 2);
    assert.equal(await atBottom(), true, 'the view follows the new answer');
    assert.equal(await view.page.getByRole('button', { name: 'Jump to latest' }).isVisible(), false);
  });

  it('the transcript can be reached with Tab, shows its focus, and scrolls with the keys', async () => {
    await view.send(state({ turns: longConversation() }));
    await view.page.getByRole('button', { name: 'New chat' }).focus();
    for (let i = 0; i < 6 && !(await isFocused('.scroller')); i++) await view.page.keyboard.press('Tab');
    assert.equal(await isFocused('.scroller'), true, 'Tab reaches the transcript');
    const focused = view.page.getByRole('region', { name: 'Chat transcript' });
    assert.equal(await focused.evaluate((e) => e === document.activeElement), true, 'it is announced as the chat transcript');
    // Its outline is drawn in the theme's focus colour.
    const [outline, focusBorder] = await focused.evaluate((e) => {
      const probe = document.body.appendChild(document.createElement('div'));
      probe.style.color = 'var(--vscode-focusBorder)';
      const colour = getComputedStyle(probe).color;
      probe.remove();
      const style = getComputedStyle(e);
      return [`${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`, colour];
    });
    assert.equal(outline, `solid 1px ${focusBorder}`);
    await view.page.keyboard.press('Home');
    await view.page.waitForFunction(() => document.querySelector('.scroller')!.scrollTop === 0);
    await view.page.keyboard.press('PageDown');
    await view.page.waitForFunction(() => document.querySelector('.scroller')!.scrollTop > 100);
  });
});
