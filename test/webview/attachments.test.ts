import * as assert from 'node:assert/strict';
import type { AttachmentChip } from '../../src/shared/protocol';
import { servedPicture, state } from './fixtures';
import { useView, View } from './harness';

/** Code attached from the editor (Add Selection to GigaChat) waits above the input for the question about it. */
describe('chat webview: attached code', function () {
  this.timeout(60_000);
  let view: View;
  useView((opened) => (view = opened));

  const retry: AttachmentChip = { id: 'a1', label: 'retry.ts:2–4', title: 'src/retry.ts, lines 2–4' };
  const upload: AttachmentChip = { id: 'a2', label: 'upload.ts:10', title: 'src/upload.ts, line 10' };
  const chips = () => view.page.locator('.attachment-chip');
  /** What each chip shows (a screen reader also hears what kind of attachment it is). */
  const labels = () => view.page.locator('.attachment-chip .chip-label');
  const input = () => view.page.locator('textarea');
  const isFocused = (selector: string) => view.page.locator(selector).evaluate((e) => e === document.activeElement);

  it('shows each piece as a chip with its file and lines, and the input asks about it', async () => {
    await view.send(state({ attachments: [retry, upload] }));
    assert.deepEqual(await labels().allTextContents(), ['retry.ts:2–4', 'upload.ts:10']);
    assert.equal(await chips().first().getAttribute('title'), 'src/retry.ts, lines 2–4');
    assert.equal(await view.page.getByRole('list', { name: 'Attached to the message' }).isVisible(), true);
    assert.equal(await view.page.getByRole('button', { name: 'Remove upload.ts:10 from the message' }).isVisible(), true);
    assert.equal(await input().getAttribute('placeholder'), 'Ask about the attached code (Enter to send)');
  });

  it('with a picture or a document among them, the input asks about the attachments, not about code', async () => {
    const shot: AttachmentChip = { id: 'p1', label: 'shot.png', title: 'shot.png, 1 KB', picture: servedPicture(view.origin, 'p1') };
    const notes: AttachmentChip = { id: 'd1', label: 'notes.txt', title: 'notes.txt, 1 KB', document: { extension: 'txt', bytes: 1_024 } };
    await view.send(state({ attachments: [shot, notes] }));
    assert.equal(await input().getAttribute('placeholder'), 'Ask about the attachments (Enter to send)');
    await view.send({ type: 'attachments', attachments: [retry, notes] });
    assert.equal(await input().getAttribute('placeholder'), 'Ask about the attachments (Enter to send)', 'code and a document');
    await view.send({ type: 'attachments', attachments: [retry] });
    assert.equal(await input().getAttribute('placeholder'), 'Ask about the attached code (Enter to send)');
  });

  it('sends the ids of the chips with the message, then the chips are gone', async () => {
    await view.send(state({ attachments: [retry, upload] }));
    await input().fill('Can these two share one helper?');
    await input().press('Enter');
    assert.deepEqual(await view.postedOfType('send'), [{ type: 'send', text: 'Can these two share one helper?', attachmentIds: ['a1', 'a2'] }]);
    assert.equal(await chips().count(), 0);
    assert.equal(await view.page.locator('.attachments').isVisible(), false, 'no empty row is left above the input');
    assert.equal(await input().getAttribute('placeholder'), 'Ask GigaChat (Enter to send, Shift+Enter for a new line)');
  });

  it('a chip removed is not sent, and the keyboard user goes on to the next chip, then the input', async () => {
    await view.send(state({ attachments: [retry, upload] }));
    await view.page.getByRole('button', { name: 'Remove retry.ts:2–4 from the message' }).focus();
    await view.page.keyboard.press('Enter');
    assert.deepEqual(await view.postedOfType('removeAttachment'), [{ type: 'removeAttachment', id: 'a1' }]);
    assert.deepEqual(await labels().allTextContents(), ['upload.ts:10']);
    assert.equal(await isFocused('.attachment-chip .remove-attachment'), true, 'focus is on the remaining chip');
    await view.page.keyboard.press('Space');
    assert.equal(await chips().count(), 0);
    assert.equal(await isFocused('textarea'), true, 'the last chip gone, focus is in the input');
    await view.page.keyboard.type('And now?');
    await view.page.keyboard.press('Enter');
    assert.deepEqual((await view.postedOfType('send')).at(-1), { type: 'send', text: 'And now?' });
  });

  it('follows the host: a piece attached while the view is open appears, and the draft is kept', async () => {
    await view.send(state());
    await input().fill('half a question');
    await view.send({ type: 'attachments', attachments: [upload] });
    assert.deepEqual(await labels().allTextContents(), ['upload.ts:10']);
    assert.equal(await input().inputValue(), 'half a question');
    await view.send({ type: 'attachments', attachments: [] });
    assert.equal(await chips().count(), 0);
  });

  it('a chip label is text, never markup', async () => {
    await view.send(state({ attachments: [{ id: 'x', label: '<img src=x onerror=alert(1)>.ts:1', title: '<b>t</b>' }] }));
    assert.equal(await labels().first().textContent(), '<img src=x onerror=alert(1)>.ts:1');
    assert.equal(await view.page.locator('.attachments img').count(), 0);
  });

  it('a new chat tells how to bring code in, with the keys of this keyboard', async () => {
    await view.send(state());
    assert.match(
      (await view.page.locator('.empty-state > p:not(.agent-hint)').textContent()) ?? '',
      /select code in the editor and press Ctrl\+Alt\+G to ask about it/,
    );
  });
});
