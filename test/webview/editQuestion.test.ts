import * as assert from 'node:assert/strict';
import { assistantTurn, state, userTurn } from './fixtures';
import { useView, View } from './harness';

/** A question's Edit button: ask it again differently, replacing it and the replies after it. */
describe('chat webview: editing a question', function () {
  this.timeout(60_000);
  let view: View;
  const harness = useView((opened) => (view = opened));

  const conversation = () =>
    state({
      draft: 'half-typed next question',
      turns: [
        userTurn('u1', 'How do I read a file?'),
        assistantTurn('a1', 'Use `fs.readFile`.'),
        userTurn('u2', 'And in Python?'),
        assistantTurn('a2', 'Use `open`.'),
      ],
    });
  const input = () => view.page.locator('textarea');
  const editButtons = () => view.page.getByRole('button', { name: 'Edit question' });
  const editBar = () => view.page.locator('.edit-bar');
  const dimmed = () => view.page.locator('.turn').evaluateAll((turns) => turns.map((turn) => getComputedStyle(turn).opacity === '0.5'));

  it('puts the question in the input, says so, marks what it would replace, and sends the edit with its id', async () => {
    await view.send(conversation());
    assert.equal(await editButtons().count(), 2, 'every question has one; replies have none');
    await editButtons().first().click();
    assert.equal(await input().inputValue(), 'How do I read a file?');
    assert.equal(await input().evaluate((element) => element === document.activeElement), true, 'ready to type');
    assert.equal(await editBar().isVisible(), true);
    assert.match(await editBar().innerText(), /replaces the question and the replies after it/);
    assert.match((await view.page.locator('.sr-only').textContent()) ?? '', /Editing your question/, 'a screen reader hears it too');
    assert.deepEqual(await dimmed(), [false, true, true, true], 'the turns after the question are what it replaces');

    await input().fill('How do I read a file line by line?');
    await input().press('Enter');
    assert.deepEqual(await view.postedOfType('send'), [{ type: 'send', text: 'How do I read a file line by line?', replaces: 'u1' }]);
    assert.equal(await editBar().isVisible(), false);
    assert.equal(await input().inputValue(), 'half-typed next question', 'the draft set aside comes back');
    assert.deepEqual(await dimmed(), [false, false, false, false]);
  });

  it('Escape cancels: the draft comes back, nothing is sent, and the draft was never overwritten by the edit', async () => {
    await view.send(conversation());
    await editButtons().nth(1).click();
    assert.equal(await input().inputValue(), 'And in Python?');
    await input().pressSequentially(' And in Go?', { delay: 10 });
    await view.page.waitForTimeout(450); // past the draft's debounce
    await input().press('Escape');
    assert.equal(await input().inputValue(), 'half-typed next question');
    assert.equal(await editBar().isVisible(), false);
    assert.deepEqual(await view.postedOfType('send'), []);
    assert.deepEqual(await view.postedOfType('draft'), [], 'the edit is not the draft');
    assert.equal(await view.page.evaluate(() => (window.__state as { draft?: string }).draft), 'half-typed next question');
  });

  it('words typed just before Edit reach the host as the draft, not the question put in their place', async () => {
    await view.send(conversation());
    await input().fill('');
    await input().pressSequentially('new words', { delay: 5 });
    await editButtons().first().click(); // within the draft's debounce
    await view.page.waitForTimeout(450);
    assert.deepEqual(
      (await view.postedOfType('draft')).map((message) => message.text),
      ['new words'],
    );
    await input().press('Escape');
    assert.equal(await input().inputValue(), 'new words');
  });

  it("the bar's Cancel button cancels too, and focus goes back to the input", async () => {
    await view.send(conversation());
    await editButtons().first().click();
    await view.page.getByRole('button', { name: 'Cancel editing (Escape)' }).click();
    assert.equal(await input().inputValue(), 'half-typed next question');
    assert.equal(await input().evaluate((element) => element === document.activeElement), true);
  });

  it('attached code goes with the edit', async () => {
    await view.send(state({ ...conversation(), attachments: [{ id: 'c1', label: 'read.py:1–3', title: 'read.py, lines 1–3' }] }));
    await editButtons().nth(1).click();
    await input().press('Enter');
    assert.deepEqual(await view.postedOfType('send'), [{ type: 'send', text: 'And in Python?', attachmentIds: ['c1'], replaces: 'u2' }]);
  });

  it('is left when the chat shown changes, the question being gone, with the draft back', async () => {
    await view.send(conversation());
    await editButtons().first().click();
    await view.send(state({ conversationId: 'other', turns: [userTurn('x1', 'Something else')] }));
    assert.equal(await editBar().isVisible(), false);
    assert.equal(await input().inputValue(), 'half-typed next question');
    assert.equal(await view.page.locator('.being-edited').count(), 0);
  });

  it('stays while the same chat is redrawn, and Stop still comes first on Escape while a reply is written', async () => {
    await view.send(conversation());
    await editButtons().first().click();
    await view.send(state({ ...conversation(), busy: true }));
    assert.equal(await editBar().isVisible(), true);
    assert.equal(
      await view.page
        .locator('.turn')
        .first()
        .getAttribute('class')
        .then((names) => names?.includes('being-edited')),
      true,
    );
    await input().press('Escape');
    assert.deepEqual(await view.postedOfType('stop'), [{ type: 'stop' }]);
    assert.equal(await editBar().isVisible(), true, 'one Escape, one thing undone');
    await view.send({ type: 'busy', busy: false });
    await input().press('Escape');
    assert.equal(await editBar().isVisible(), false);
  });

  it('Enter sends an edit while a reply is written (it replaces that reply), but not a new message', async () => {
    await view.send(state({ ...conversation(), busy: true }));
    await input().fill('A new question');
    await input().press('Enter');
    assert.deepEqual(await view.postedOfType('send'), [], 'a new message waits for the reply');
    await editButtons().nth(1).click();
    await input().fill('And in Rust?');
    await input().press('Enter');
    assert.deepEqual(await view.postedOfType('send'), [{ type: 'send', text: 'And in Rust?', replaces: 'u2' }]);
    assert.equal(await input().inputValue(), 'A new question', 'what was typed before the edit is back');
  });

  it('comes back after a window reload, as typed, with the draft it set aside', async () => {
    await view.send(conversation());
    await editButtons().nth(1).click();
    await input().pressSequentially(' And in Go?', { delay: 5 });
    await harness.reopen({ savedState: await view.page.evaluate(() => window.__state) });
    await view.send(conversation());
    assert.equal(await input().inputValue(), 'And in Python? And in Go?');
    assert.equal(await editBar().isVisible(), true);
    assert.deepEqual(await dimmed(), [false, false, false, true], 'what it would replace is marked again');
    await input().press('Escape');
    assert.equal(await input().inputValue(), 'half-typed next question', 'the draft set aside comes back');
    assert.deepEqual(await view.postedOfType('draft'), [], 'the edit never became the draft');

    // Ended before the reload: not back, even from a state VS Code saved while it was under way.
    await editButtons().first().click();
    const duringEdit = await view.page.evaluate(() => window.__state);
    await input().press('Escape');
    await harness.reopen({ savedState: await view.page.evaluate(() => window.__state) });
    await view.send(conversation());
    assert.equal(await editBar().isVisible(), false);
    await harness.reopen({ savedState: duringEdit });
    await view.send(state({ ...conversation(), draft: 'typed after the edit ended', draftAt: Date.now() + 1000 }));
    assert.equal(await editBar().isVisible(), false, 'a draft typed later means the edit had ended');
    assert.equal(await input().inputValue(), 'typed after the edit ended');
  });

  it('is not brought back for a question the chat no longer has', async () => {
    await view.send(conversation());
    await editButtons().nth(1).click();
    await harness.reopen({ savedState: await view.page.evaluate(() => window.__state) });
    await view.send(state({ draft: 'half-typed next question', turns: [userTurn('u1', 'How do I read a file?'), assistantTurn('a1', 'Use `fs.readFile`.')] }));
    assert.equal(await editBar().isVisible(), false);
    assert.equal(await input().inputValue(), 'half-typed next question');
  });
});
