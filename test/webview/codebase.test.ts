import * as assert from 'node:assert/strict';
import { assistantTurn, state, userTurn } from './fixtures';
import { useView, View } from './harness';

/** Codebase context: the input's button (or #codebase), the passages a question went with, and citations in replies. */
describe('chat webview: codebase context', function () {
  this.timeout(60_000);
  let view: View;
  useView((opened) => (view = opened));

  const input = () => view.page.locator('textarea');
  const toggle = () => view.page.getByRole('button', { name: /Answer from the workspace/ });
  const pressed = async () => toggle().getAttribute('aria-pressed');

  it('the button asks for codebase context for one message, and shows it on', async () => {
    await view.send(state());
    assert.equal(await pressed(), 'false');
    await toggle().click();
    assert.equal(await pressed(), 'true');
    assert.equal(await view.page.evaluate(() => document.activeElement?.localName), 'textarea', 'typing goes on in the input');
    await input().fill('where are retries counted?');
    await input().press('Enter');
    assert.deepEqual(await view.postedOfType('send'), [{ type: 'send', text: 'where are retries counted?', codebase: true }]);
    assert.equal(await pressed(), 'false', 'the next message is asked without it');
    await input().fill('and a plain question');
    await input().press('Enter');
    assert.deepEqual((await view.postedOfType('send')).at(-1), { type: 'send', text: 'and a plain question' });
  });

  it('#codebase typed in the message turns it on, and taking it out turns it off again', async () => {
    await view.send(state());
    await input().fill('#codebase how is the cache saved?');
    assert.equal(await pressed(), 'true');
    await input().fill('how is the cache saved?');
    assert.equal(await pressed(), 'false');
    await input().fill('how is the cache saved? #codebase');
    await input().press('Enter');
    assert.deepEqual(await view.postedOfType('send'), [{ type: 'send', text: 'how is the cache saved? #codebase', codebase: true }]);
  });

  it('a question shows the passages it was sent with; each opens its file at its lines', async () => {
    const sources = [
      { file: 'src/core/service/retry.ts', first: 3, last: 19 },
      { file: 'src/host/upload.ts', first: 40, last: 40 },
    ];
    await view.send(state({ turns: [userTurn('u', '#codebase where are retries counted?', { sources }), assistantTurn('a', 'In retry.ts.')] }));
    const chips = view.page.getByRole('list', { name: 'Passages of the workspace sent with the question' }).getByRole('link');
    assert.deepEqual(await chips.allTextContents(), ['retry.ts:3-19', 'upload.ts:40']);
    assert.equal(await chips.first().getAttribute('title'), 'Open src/core/service/retry.ts:3-19');
    await chips.nth(1).click();
    assert.deepEqual(await view.postedOfType('openFile'), [{ type: 'openFile', file: 'src/host/upload.ts', first: 40, last: 40 }]);
    assert.deepEqual(await view.postedOfType('openLink'), [], 'never opened as a web address');
  });

  it('the last question’s passages each have a × that asks again without it; an older question’s have none, nor one whose reply is being written', async () => {
    const sources = [
      { file: 'src/core/service/retry.ts', first: 3, last: 19 },
      { file: 'src/host/upload.ts', first: 40, last: 40 },
    ];
    const older = userTurn('u1', '#codebase first', { sources });
    const last = userTurn('u2', '#codebase second', { sources });
    await view.send(state({ turns: [older, assistantTurn('a1', 'One.'), last, assistantTurn('a2', 'Two.')] }));
    const removeButtons = view.page.getByRole('button', { name: /^Answer again without/ });
    assert.equal(await removeButtons.count(), 2, 'only the last question’s');
    await view.page.getByRole('button', { name: 'Answer again without retry.ts:3-19' }).click();
    assert.deepEqual(await view.postedOfType('removeSource'), [{ type: 'removeSource', turnId: 'u2', file: 'src/core/service/retry.ts', first: 3, last: 19 }]);
    assert.deepEqual(await view.postedOfType('openFile'), [], 'the × does not open the file');

    await view.send(state({ busy: true, turns: [last, assistantTurn('a2', 'Tw', { status: 'streaming' })] }));
    assert.equal(await removeButtons.count(), 0, 'not while the reply is written');
  });

  it('citations in a reply are links that open the file at their lines, in text and in inline code, but not in code blocks', async () => {
    const reply = [
      'The counter is in src/core/service/retry.ts:12-20, and the limit in `src/settings.ts:7`.',
      '',
      '```ts',
      '// see src/core/service/retry.ts:1',
      '```',
      '',
      'Not a file: version 1.2:3, nor [a link](https://example.com/a.ts:3).',
    ].join('\n');
    await view.send(state({ turns: [userTurn('u', 'q'), assistantTurn('a', reply)] }));
    const links = view.page.locator('.turn-assistant .file-link');
    assert.deepEqual(await links.allTextContents(), ['src/core/service/retry.ts:12-20', 'src/settings.ts:7']);
    assert.equal(await view.page.locator('.turn-assistant pre .file-link').count(), 0);
    await links.first().click();
    await links.nth(1).click();
    assert.deepEqual(await view.postedOfType('openFile'), [
      { type: 'openFile', file: 'src/core/service/retry.ts', first: 12, last: 20 },
      { type: 'openFile', file: 'src/settings.ts', first: 7, last: 7 },
    ]);
    await view.page.getByRole('link', { name: 'a link' }).click();
    assert.deepEqual(await view.postedOfType('openLink'), [{ type: 'openLink', href: 'https://example.com/a.ts:3' }], 'the model’s own link stays a web link');
  });

  it('a citation that climbs out of the workspace is not a link', async () => {
    await view.send(state({ turns: [userTurn('u', 'q'), assistantTurn('a', 'See ../../etc/passwd.txt:1 and /etc/hosts.txt:2.')] }));
    assert.equal(await view.page.locator('.turn-assistant .file-link').count(), 0);
  });
});
