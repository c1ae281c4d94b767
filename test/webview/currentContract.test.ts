import * as assert from 'node:assert/strict';
import { toViewTurn } from '../../src/host/chat/viewTurns';
import { assistantTurn, state, userTurn } from './fixtures';
import { useView, View } from './harness';

/** What the service's current contract adds to a reply, as the chat view shows it: reasoning, web sources, the model; and the web toggle. */
describe('chat webview: reasoning, web sources and the model that answered', function () {
  this.timeout(60_000);
  let view: View;
  useView((opened) => (view = opened));

  const question = userTurn('q1', 'Why is the sky blue?');

  it("streams a reasoning model's thinking apart, open while it thinks and folded once the answer starts; Copy leaves it out", async () => {
    await view.send(state({ turns: [question, assistantTurn('r1', '', { status: 'streaming' })], busy: true }));
    await view.send({ type: 'reasoningDelta', turnId: 'r1', text: 'The user asks about ' });
    await view.send({ type: 'reasoningDelta', turnId: 'r1', text: 'scattering.' });
    const section = view.page.locator('.turn-assistant details.reasoning');
    await section.locator('.reasoning-text', { hasText: 'The user asks about scattering.' }).waitFor();
    assert.equal(await section.evaluate((details) => (details as HTMLDetailsElement).open), true, 'open while the model thinks');
    assert.equal(await section.locator('summary').textContent(), 'Reasoning…');
    await view.send({ type: 'delta', turnId: 'r1', text: 'Because of **Rayleigh** scattering.' });
    await view.page.locator('.turn-assistant .turn-body strong', { hasText: 'Rayleigh' }).waitFor();
    assert.equal(await section.evaluate((details) => (details as HTMLDetailsElement).open), false, 'folded once the answer starts');
    assert.equal(await section.locator('summary').textContent(), 'Reasoning');
    assert.doesNotMatch((await view.page.locator('.turn-assistant .turn-body').textContent()) ?? '', /The user asks/);
    await view.send({
      type: 'turnUpdated',
      turn: assistantTurn('r1', 'Because of **Rayleigh** scattering.', {
        reasoning: 'The user asks about scattering.',
        model: 'GigaChat-2-Reasoning:2.0.28.2',
      }),
    });
    await view.page.locator('.reply-model', { hasText: 'GigaChat-2-Reasoning:2.0.28.2' }).waitFor();
    await section.locator('summary').click();
    assert.equal(await section.evaluate((details) => (details as HTMLDetailsElement).open), true, 'expandable later');
    await view.page.getByRole('button', { name: 'Copy reply' }).click();
    assert.deepEqual(await view.postedOfType('copyReply'), [{ type: 'copyReply', turnId: 'r1' }], 'the host copies the answer, which has no reasoning');
  });

  it("a web answer's numbered links and its sources open through the host, and no raw marker shows", async () => {
    const answer = 'The JIT got faster [[2]](https://realpython.com/news/). UTF-8 is the default [[1]](https://docs.python.org/3/).';
    const webSources = [
      { number: 1, url: 'https://docs.python.org/3/', title: 'Python documentation', host: 'docs.python.org' },
      { number: 2, url: 'https://realpython.com/news/', title: 'Python News', host: 'realpython.com' },
    ];
    await view.send(state({ turns: [question, assistantTurn('r1', answer, { webSources })] }));
    const list = view.page.getByRole('region', { name: 'Sources' });
    assert.deepEqual(await list.locator('li').allTextContents(), ['Python documentation · docs.python.org', 'Python News · realpython.com']);
    assert.deepEqual(await list.locator('li').evaluateAll((items) => items.map((item) => (item as HTMLLIElement).value)), [1, 2]);
    assert.equal(await view.page.locator('.turn-body a', { hasText: '[2]' }).getAttribute('href'), 'https://realpython.com/news/');
    assert.doesNotMatch((await view.page.locator('.turn-assistant').textContent()) ?? '', /sources=/);
    await list.getByRole('link', { name: 'Python News' }).click();
    assert.deepEqual(await view.postedOfType('openLink'), [{ type: 'openLink', href: 'https://realpython.com/news/' }]);
  });

  it('a source whose address holds parentheses is linked whole, and none of the address shows as text', async () => {
    const address = 'https://example.org/search?q=f(x))&lang=en';
    // The reply as the host stores it and sends it to the view.
    const reply = toViewTurn({
      id: 'r1',
      role: 'assistant',
      content: 'Mercury is the smallest planet [sources=[1]].',
      status: 'done',
      webSources: { '1': { url: address, title: 'Mercury' } },
    });
    await view.send(state({ turns: [question, reply] }));
    const body = view.page.locator('.turn-assistant .turn-body');
    await body.locator('a', { hasText: '[1]' }).waitFor();
    assert.equal((await body.textContent())?.trim(), 'Mercury is the smallest planet [1].');
    await body.locator('a', { hasText: '[1]' }).click();
    const [opened] = await view.postedOfType('openLink');
    assert.equal(decodeURI(opened.href), address);
  });

  it('the web toggle (or #web) asks for a web search for one message, under the text beside the other toggles', async () => {
    await view.send(state());
    const toggle = view.page.locator('.web-toggle');
    const input = view.page.locator('textarea');
    const [inputBox, toggleBox] = [await input.boundingBox(), await toggle.boundingBox()];
    assert.ok(inputBox && toggleBox && toggleBox.y >= inputBox.y + inputBox.height - 1, 'the toggles are under the text');
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
    await input.fill('What is new in Python?');
    await input.press('Enter');
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false', 'for one message');
    await input.fill('And in Go? #web');
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true', '#web presses it');
    await input.press('Enter');
    assert.deepEqual(await view.postedOfType('send'), [
      { type: 'send', text: 'What is new in Python?', web: true },
      { type: 'send', text: 'And in Go? #web', web: true },
    ]);
  });
});
