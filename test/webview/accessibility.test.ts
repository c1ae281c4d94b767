import * as assert from 'node:assert/strict';
import type { AttachmentChip } from '../../src/shared/protocol';
import { assistantTurn, servedPicture, state, userTurn } from './fixtures';
import { useView, View } from './harness';

/** What a screen reader user hears and how the keyboard moves through the chat. */
describe('chat webview: accessibility', function () {
  this.timeout(60_000);
  let view: View;
  const harness = useView((opened) => (view = opened));

  const names = () => view.page.$$eval('article.turn', (turns) => turns.map((turn) => turn.getAttribute('aria-label')));
  const focusedName = () => view.page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
  const turns = () => [userTurn('u1', 'first'), assistantTurn('a1', 'one'), userTurn('u2', 'second'), assistantTurn('a2', 'two')];

  it('names each message by who wrote it and where it is among all of the chat, those not loaded yet too', async () => {
    await view.send(state({ turns: turns(), earlierTurns: 2 }));
    assert.deepEqual(await names(), ['Your question, 3 of 6', "GigaChat's answer, 4 of 6", 'Your question, 5 of 6', "GigaChat's answer, 6 of 6"]);
    await view.send({ type: 'turnAdded', conversationId: 'c1', turn: userTurn('u3', 'third') });
    assert.equal((await names()).at(-1), 'Your question, 7 of 7');
    assert.equal((await names())[0], 'Your question, 3 of 7', 'the others count the new one');
  });

  it('names messages in the display language', async () => {
    view = await harness.reopen({ lang: 'ru', strings: { questionPosition: 'Ваш вопрос, {0} из {1}', answerPosition: 'Ответ GigaChat, {0} из {1}' } });
    await view.send(state({ turns: turns() }));
    assert.deepEqual(await names(), ['Ваш вопрос, 1 из 4', 'Ответ GigaChat, 2 из 4', 'Ваш вопрос, 3 из 4', 'Ответ GigaChat, 4 из 4']);
  });

  it('Alt+↑ from the input goes to the last message, then Alt+↑ and Alt+↓ move between messages', async () => {
    await view.send(state({ turns: turns() }));
    await view.page.locator('textarea').focus();
    await view.page.keyboard.press('Alt+ArrowUp');
    assert.equal(await focusedName(), "GigaChat's answer, 4 of 4");
    await view.page.keyboard.press('Alt+ArrowUp');
    await view.page.keyboard.press('Alt+ArrowUp');
    assert.equal(await focusedName(), "GigaChat's answer, 2 of 4");
    await view.page.keyboard.press('Alt+ArrowDown');
    assert.equal(await focusedName(), 'Your question, 3 of 4');
    // From a button inside a message too.
    await view.page.locator('.turn-assistant').first().getByRole('button', { name: 'Copy reply' }).focus();
    await view.page.keyboard.press('Alt+ArrowDown');
    assert.equal(await focusedName(), 'Your question, 3 of 4');
    // The first and last stay put; Alt+↓ in the input leaves the input alone.
    await view.page.keyboard.press('Alt+ArrowUp');
    await view.page.keyboard.press('Alt+ArrowUp');
    await view.page.keyboard.press('Alt+ArrowUp');
    assert.equal(await focusedName(), 'Your question, 1 of 4');
    await view.page.locator('textarea').focus();
    await view.page.keyboard.press('Alt+ArrowDown');
    assert.equal(await view.page.evaluate(() => document.activeElement?.localName), 'textarea');
  });

  it("the input's buttons have short names, with what they do at length as their description", async () => {
    await view.send(state());
    for (const [name, details] of [
      ['Answer from the workspace', 'the passages closest to the question go with it'],
      ['Search the web', 'The pages found count as input tokens.'],
      ['Attach files', 'you can also paste or drop them into the input'],
    ]) {
      const button = view.page.getByRole('button', { name, exact: true });
      const described = await button.evaluate((element) => document.getElementById(element.getAttribute('aria-describedby') ?? '')?.textContent);
      assert.ok(described?.includes(details), `${name}: ${described}`);
    }
  });

  it('the list of attachments names a picture as a picture, code as code', async () => {
    const chips: AttachmentChip[] = [
      { id: 'a1', label: 'retry.ts:2–4', title: 'src/retry.ts, lines 2–4' },
      { id: 'p1', label: 'shot.png', title: 'shot.png, 1 KB', picture: servedPicture(view.origin, 'p1') },
    ];
    await view.send(state({ attachments: chips }));
    const list = view.page.getByRole('list', { name: 'Attached to the message' });
    assert.deepEqual(await list.locator('.sr-only').allTextContents(), ['Attached code: retry.ts:2–4', 'Attached picture: shot.png']);
  });

  describe('a picture for a model that cannot see it', () => {
    const picture = (): AttachmentChip => ({ id: 'p1', label: 'shot.png', title: 'shot.png, 1 KB', picture: servedPicture(view.origin, 'p1') });
    const warning = () => view.page.locator('.picture-model-warning');

    it('is warned about before sending, with a switch to a model that sees it; the warning goes once it is chosen', async () => {
      await view.send(state({ model: 'GigaChat-2', attachments: [picture()] }));
      assert.equal(await warning().isVisible(), true);
      assert.equal(
        await warning().locator('> span').textContent(),
        'The selected model, GigaChat-2, cannot see pictures: this question would be refused with its picture.',
      );
      await warning().getByRole('button', { name: 'Switch to GigaChat-2-Pro', exact: true }).click();
      assert.deepEqual(await view.postedOfType('selectModel'), [{ type: 'selectModel', model: 'GigaChat-2-Pro' }]);
      assert.equal(await view.page.evaluate(() => document.activeElement?.localName), 'textarea', 'the keyboard goes on in the input');
      // The host selects it and says so.
      await view.send({ type: 'models', models: ['GigaChat-2', 'GigaChat-2-Pro', 'GigaChat-2-Max'], model: 'GigaChat-2-Pro' });
      assert.equal(await warning().isVisible(), false);
    });

    it('is not warned about for a model that sees pictures, nor for code alone; it goes with the picture', async () => {
      await view.send(state({ model: 'GigaChat-2-Max', attachments: [picture()] }));
      assert.equal(await warning().isVisible(), false);
      await view.send(state({ model: 'GigaChat-2', attachments: [{ id: 'a1', label: 'retry.ts:2–4', title: 'src/retry.ts' }] }));
      assert.equal(await warning().isVisible(), false);
      await view.send(state({ model: 'GigaChat-2', attachments: [picture()] }));
      assert.equal(await warning().isVisible(), true);
      await view.send({ type: 'attachments', attachments: [] });
      assert.equal(await warning().isVisible(), false);
    });
  });
});
