import * as assert from 'node:assert/strict';
import { assistantTurn, state, userTurn } from './fixtures';
import { useView, View } from './harness';

/** ↑ in the empty input brings back the chat's earlier questions, as in a shell. */
describe('chat webview: earlier questions with the arrow keys', function () {
  this.timeout(60_000);
  let view: View;
  useView((opened) => (view = opened));

  const input = () => view.page.locator('textarea');
  const caret = () => input().evaluate((element: HTMLTextAreaElement) => element.selectionStart);
  const chat = () =>
    state({
      turns: [
        userTurn('u1', 'How do I read a file?'),
        assistantTurn('a1', 'Use `fs.readFile`.'),
        userTurn('u2', 'Line by line,\nin Node.js?'),
        assistantTurn('a2', 'Use `readline`.'),
        userTurn('u3', 'And in Python?'),
        assistantTurn('a3', 'Use `open`.'),
      ],
    });

  it('↑ goes back one question at a time and stops at the first; ↓ comes forward to the empty input', async () => {
    await view.send(chat());
    await input().focus();
    await input().press('ArrowUp');
    assert.equal(await input().inputValue(), 'And in Python?');
    assert.equal(await caret(), 'And in Python?'.length, 'the caret at the end, ready to add to it');
    await input().press('ArrowUp');
    assert.equal(await input().inputValue(), 'Line by line,\nin Node.js?');
    await input().press('ArrowUp'); // from the end of the second line: up one line first
    assert.equal(await input().inputValue(), 'Line by line,\nin Node.js?');
    await input().press('ArrowUp');
    assert.equal(await input().inputValue(), 'How do I read a file?');
    await input().press('ArrowUp');
    assert.equal(await input().inputValue(), 'How do I read a file?', 'the first question: nothing further back');
    await input().press('ArrowDown');
    assert.equal(await input().inputValue(), 'Line by line,\nin Node.js?');
    await input().press('ArrowDown'); // the caret is on its last line: on to the next question
    assert.equal(await input().inputValue(), 'And in Python?');
    await input().press('ArrowDown');
    assert.equal(await input().inputValue(), '', 'forward past the last question: the empty input again');
  });

  it("a recalled question changed is the user's text: the arrows move the caret, and Enter sends it as a new message", async () => {
    await view.send(chat());
    await input().focus();
    await input().press('ArrowUp');
    await input().press('Backspace');
    await input().pressSequentially(' 3?');
    await input().press('ArrowUp');
    assert.equal(await input().inputValue(), 'And in Python 3?', 'not replaced by an older question');
    await input().press('Enter');
    assert.deepEqual(await view.postedOfType('send'), [{ type: 'send', text: 'And in Python 3?' }]);
  });

  it('leaves typed text, an edit and an empty chat alone', async () => {
    await view.send(chat());
    await input().fill('my own words');
    await input().press('ArrowUp');
    assert.equal(await input().inputValue(), 'my own words');
    await input().fill('');
    await view.page.getByRole('button', { name: 'Edit question' }).first().click();
    await input().press('ArrowUp');
    assert.equal(await input().inputValue(), 'How do I read a file?', "editing: the arrows are the text's");
    await input().press('Escape');
    await view.send(state({ conversationId: 'empty', turns: [] }));
    await input().press('ArrowUp');
    assert.equal(await input().inputValue(), '');
  });
});
