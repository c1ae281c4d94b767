import * as assert from 'node:assert/strict';
import type { AttachmentChip } from '../../src/shared/protocol';
import { servedPicture, state, userTurn } from './fixtures';
import { useView, View } from './harness';

const REPORT = [...Buffer.from('Quarterly report: revenue grew by 12%.')];

/** Documents attached to a question, and the files the host refused, as the chat view shows them. */
describe('chat webview: documents in the input and in questions, and files refused', function () {
  this.timeout(60_000);
  let view: View;
  useView((opened) => (view = opened));

  const input = () => view.page.locator('textarea');
  const report: AttachmentChip = { id: 'd1', label: 'report.pdf', title: 'report.pdf, 1 KB', document: { extension: 'pdf', bytes: 1_300_000 } };

  it('a pasted document goes to the host whole, like a picture', async () => {
    await view.send(state());
    await view.page.evaluate((bytes) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(bytes)], 'notes.txt', { type: 'text/plain' }));
      document.querySelector('textarea')?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, REPORT);
    await view.page.waitForFunction(() => window.__posted.some((m) => (m as { type: string }).type === 'attachFile'));
    assert.deepEqual(await view.postedOfType('attachFile'), [
      { type: 'attachFile', name: 'notes.txt', mediaType: 'text/plain', size: REPORT.length, bytes: REPORT },
    ]);
  });

  it("a document's chip shows its name, type and size beside the picture's thumbnail; × takes it out and it is not sent", async () => {
    const picture: AttachmentChip = { id: 'p1', label: 'shot.png', title: 'shot.png, 1 KB', picture: servedPicture(view.origin, 'p1') };
    await view.send(state({ attachments: [picture, report] }));
    const chip = view.page.locator('.attachment-chip[data-id="d1"]');
    assert.equal(await chip.locator('.document-name').textContent(), 'report.pdf');
    assert.equal(await chip.locator('.document-meta').textContent(), 'PDF · 1.2\u00a0MB');
    assert.equal(await chip.getAttribute('title'), 'report.pdf, 1 KB');
    assert.equal(await view.page.locator('.attachment-chip[data-id="p1"] .chip-thumbnail').count(), 1, 'the picture keeps its thumbnail');
    await view.page.getByRole('button', { name: 'Remove report.pdf from the message' }).click();
    await input().fill('Only the picture');
    await input().press('Enter');
    assert.deepEqual(
      await view.page.evaluate(() => window.__posted.filter((m) => ['removeAttachment', 'send'].includes((m as { type: string }).type))),
      [
        { type: 'removeAttachment', id: 'd1' },
        { type: 'send', text: 'Only the picture', attachmentIds: ['p1'] },
      ],
      'taken out before the message, which goes with the picture only',
    );
  });

  it('a second picture is refused with the message that says the limit and what to do, and the picture attached stays', async () => {
    const picture: AttachmentChip = { id: 'p1', label: 'shot.png', title: 'shot.png, 1 KB', picture: servedPicture(view.origin, 'p1') };
    await view.send(state({ attachments: [picture, report] }));
    const refusal =
      'second.png is not attached: GigaChat takes one picture per message, and this message has one. ' +
      'Send it first and attach the next picture to the next message, or remove the picture attached.';
    // What the host answers a second picture with: the chips as they were, then why.
    await view.send({ type: 'attachments', attachments: [picture, report] });
    await view.send({ type: 'attachmentsRefused', messages: [refusal] });
    const alert = view.page.getByRole('alert');
    assert.equal(await alert.textContent(), refusal);
    assert.equal(await alert.isVisible(), true);
    assert.deepEqual(await view.page.locator('.attachment-chip').evaluateAll((chips) => chips.map((chip) => chip.getAttribute('data-id'))), ['p1', 'd1']);
    // The next change of the chips (a removal, another file, the message sent) clears it.
    await view.page.getByRole('button', { name: 'Remove report.pdf from the message' }).click();
    assert.equal(await view.page.locator('.attachment-refusals').isVisible(), false);
  });

  it('a question shows the documents it was sent with, as chips, without any way to fetch them', async () => {
    const question = userTurn('u1', 'Summarize these', {
      documents: [
        { name: 'report.pdf', extension: 'pdf', bytes: 1_300_000 },
        { name: 'notes.txt', extension: 'txt', bytes: 38 },
      ],
    });
    await view.send(state({ turns: [question] }));
    const chips = view.page.locator('.turn-user .question-documents .document-chip');
    assert.deepEqual(await chips.allTextContents(), ['report.pdfPDF · 1.2\u00a0MB', 'notes.txtTXT · 1\u00a0kB']);
    assert.equal(await view.page.getByRole('list', { name: 'Documents attached to the question' }).isVisible(), true);
    assert.equal(await view.page.locator('.question-documents a, .question-documents img').count(), 0);
  });
});
