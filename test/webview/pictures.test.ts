import * as assert from 'node:assert/strict';
import type { AttachmentChip } from '../../src/shared/protocol';
import { servedPicture, state, userTurn } from './fixtures';
import { useView, View } from './harness';

/** A real 1×1 PNG, as a screenshot in the clipboard would be (smaller). */
const PNG = [...Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')];

/** Pictures pasted, dropped or picked into the input, and those a question was asked with. */
describe('chat webview: pictures in the input and in questions', function () {
  this.timeout(60_000);
  let view: View;
  useView((opened) => (view = opened));

  const input = () => view.page.locator('textarea');

  /** Fires what the browser fires when a file is pasted into the input, or dropped onto it. */
  const deliver = (how: 'paste' | 'drop', file: { name: string; type: string; bytes?: number[]; size?: number }) =>
    view.page.evaluate(
      ({ how, file }) => {
        const content = file.bytes ? new Uint8Array(file.bytes) : new Uint8Array(file.size ?? 0);
        const data = new DataTransfer();
        data.items.add(new File([content], file.name, { type: file.type }));
        const textarea = document.querySelector('textarea') as HTMLTextAreaElement;
        const event =
          how === 'paste'
            ? new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true })
            : new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true });
        return textarea.dispatchEvent(event);
      },
      { how, file },
    );
  const attached = async (count: number) => {
    await view.page.waitForFunction((count) => window.__posted.filter((m) => (m as { type: string }).type === 'attachFile').length >= count, count);
    return view.postedOfType('attachFile');
  };

  it('a picture pasted into the input goes to the host, whole, and is not pasted as text', async () => {
    await view.send(state());
    const notPrevented = await deliver('paste', { name: 'image.png', type: 'image/png', bytes: PNG });
    assert.equal(notPrevented, false, 'the browser does not paste the file itself');
    assert.deepEqual(await attached(1), [{ type: 'attachFile', name: 'image.png', mediaType: 'image/png', size: PNG.length, bytes: PNG }]);
    assert.equal(await input().inputValue(), '');
  });

  it('a picture dropped onto the input goes to the host too', async () => {
    await view.send(state());
    await deliver('drop', { name: 'shot.png', type: 'image/png', bytes: PNG });
    assert.deepEqual(
      (await attached(1)).map((message) => [message.name, message.size]),
      [['shot.png', PNG.length]],
    );
  });

  it('a file of 20 MB or more (more than a request takes) is not read: only its name and size go, so the host can say why it is refused', async () => {
    await view.send(state());
    await deliver('paste', { name: 'huge.pdf', type: 'application/pdf', size: 20 * 1024 * 1024 });
    assert.deepEqual(await attached(1), [{ type: 'attachFile', name: 'huge.pdf', mediaType: 'application/pdf', size: 20 * 1024 * 1024 }]);
  });

  it('the picture button asks the host for its file dialog; without a key it is off', async () => {
    await view.send(state());
    await view.page.getByRole('button', { name: 'Attach files', exact: true }).click();
    assert.equal((await view.postedOfType('pickFiles')).length, 1);
    await view.send(state({ hasKey: false }));
    assert.equal(await view.page.locator('.attach-picture').isDisabled(), true);
  });

  it("a picture chip shows its thumbnail, from the host's stored copy; its remove button takes it out and it is not sent", async () => {
    const picture: AttachmentChip = { id: 'p1', label: 'shot.png', title: 'shot.png, 1 KB', picture: servedPicture(view.origin, 'p1') };
    const code: AttachmentChip = { id: 'a1', label: 'retry.ts:2–4', title: 'src/retry.ts, lines 2–4' };
    await view.send(state({ attachments: [code, picture] }));
    const thumbnail = view.page.locator('.attachment-chip .chip-thumbnail');
    await view.page.waitForFunction(() => document.querySelector<HTMLImageElement>('.chip-thumbnail')?.naturalWidth === 1);
    assert.equal(await thumbnail.getAttribute('alt'), '', 'the chip says what it holds once, not the thumbnail again');
    assert.equal(await view.page.locator('.attachment-chip[data-id="p1"] .sr-only').textContent(), 'Attached picture: shot.png');
    await view.page.getByRole('button', { name: 'Remove shot.png from the message' }).click();
    assert.deepEqual(await view.postedOfType('removeAttachment'), [{ type: 'removeAttachment', id: 'p1' }]);
    assert.equal(await thumbnail.count(), 0);
    await input().fill('About the code only');
    await input().press('Enter');
    assert.deepEqual(await view.postedOfType('send'), [{ type: 'send', text: 'About the code only', attachmentIds: ['a1'] }]);
    assert.deepEqual(await view.cspViolations(), []);
  });

  it("a question shows the pictures it was asked with as thumbnails, which open like the model's", async () => {
    const question = userTurn('u1', 'What is wrong here?', { images: [servedPicture(view.origin, 'p1'), servedPicture(view.origin, 'p2')] });
    await view.send(state({ turns: [question] }));
    await view.page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('.question-pictures img')].every((image) => image.naturalWidth > 0));
    assert.equal(await view.page.locator('.turn-user .question-pictures img').count(), 2);
    assert.equal(await view.page.locator('.question-pictures img').first().getAttribute('alt'), 'Picture attached to the question');
    await view.page.locator('.question-pictures .image-open').first().click();
    assert.deepEqual(await view.postedOfType('openImage'), [{ type: 'openImage', fileId: 'p1' }]);
    assert.deepEqual(await view.cspViolations(), []);
  });
});
