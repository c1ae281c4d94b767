import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { AttachmentChip } from '../../src/shared/protocol';
import { assistantTurn, servedPicture, state, userTurn, wideTable } from './fixtures';
import { useView, View } from './harness';

/** Every word of every cell that the browser drew on more than one line: a word split in two. */
function brokenWords(page: Page): Promise<string[]> {
  return page.$$eval('.turn-assistant td, .turn-assistant th', (cells) => {
    const broken: string[] = [];
    for (const cell of cells) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const match of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          // A word on one line has one box; one split across lines has a box on each.
          const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
          if (tops.size > 1) broken.push(match[0]);
        }
      }
    }
    return broken;
  });
}

describe('chat webview: answers in a narrow panel', function () {
  this.timeout(60_000);
  let view: View;
  const harness = useView((opened) => (view = opened));

  it('a wide table scrolls sideways in its own box and never splits a word; prose around it still wraps', async () => {
    view = await harness.reopen({ width: 300 });
    await view.send(state({ turns: [userTurn('u1', 'Сравни сортировки'), assistantTurn('a1', wideTable)] }));
    const box = view.page.locator('.turn-assistant .table-scroll');
    assert.equal(await box.count(), 1, 'the table sits in a box of its own');
    const sizes = await box.evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
    assert.ok(sizes.scroll > sizes.client + 100, `the table is wider than its box, which scrolls: ${JSON.stringify(sizes)}`);
    assert.deepEqual(await brokenWords(view.page), [], 'no word of a cell is split across lines');
    // The reply itself does not get wider than the panel: only the table's box scrolls.
    const reply = await view.page.locator('.turn-assistant .turn-body').evaluate((body) => ({ scroll: body.scrollWidth, client: body.clientWidth }));
    assert.ok(reply.scroll <= reply.client, `the long identifier and address wrap: ${JSON.stringify(reply)}`);

    // The keyboard reaches the box and scrolls it.
    assert.equal(await box.getAttribute('tabindex'), '0');
    assert.equal(await box.getAttribute('role'), 'region');
    assert.equal(await box.getAttribute('aria-label'), 'Table');
    await box.focus();
    await view.page.keyboard.press('ArrowRight');
    await view.page.waitForFunction(() => (document.querySelector('.table-scroll')?.scrollLeft ?? 0) > 0);
  });

  it('a wide table shows which way it goes on: the edge fades where more of it lies', async () => {
    view = await harness.reopen({ width: 300 });
    await view.send(state({ turns: [userTurn('u1', 'Сравни сортировки'), assistantTurn('a1', wideTable)] }));
    const box = view.page.locator('.turn-assistant .table-scroll');
    const faded = () => box.evaluate((element) => ({ more: element.getAttribute('data-more'), mask: getComputedStyle(element).maskImage }));
    await view.page.waitForFunction(() => document.querySelector('.table-scroll')?.getAttribute('data-more') === 'right');
    assert.notEqual((await faded()).mask, 'none', 'the right edge fades before any scrolling');
    await box.evaluate((element) => element.scrollBy({ left: 60, behavior: 'instant' }));
    await view.page.waitForFunction(() => document.querySelector('.table-scroll')?.getAttribute('data-more') === 'left right');
    await box.evaluate((element) => element.scrollTo({ left: element.scrollWidth, behavior: 'instant' }));
    await view.page.waitForFunction(() => document.querySelector('.table-scroll')?.getAttribute('data-more') === 'left');
    assert.notEqual((await faded()).mask, 'none', 'at the end, the left edge fades');
    // A wider panel shows the whole table: no edge fades.
    await view.page.setViewportSize({ width: 1600, height: 720 });
    await view.page.waitForFunction(() => !document.querySelector('.table-scroll')?.hasAttribute('data-more'));
    assert.equal((await faded()).mask, 'none');
  });

  it('the passages a question was sent with wrap between chips, and no chip breaks inside its name and lines', async () => {
    view = await harness.reopen({ width: 300 });
    const sources = [
      { file: 'src/core/service/retry.ts', first: 1, last: 11 },
      { file: 'src/host/chat/chatViewProvider.ts', first: 120, last: 188 },
      { file: 'src/core/search/vector/vectorPageMemory.ts', first: 40, last: 41 },
      { file: 'src/a-very-long-folder-name/with-a-file-name-longer-than-any-panel-is-wide.ts', first: 1000, last: 1011 },
    ];
    await view.send(state({ turns: [userTurn('u', '#codebase where are retries counted?', { sources }), assistantTurn('a', 'In retry.ts.')] }));
    const list = view.page.getByRole('list', { name: 'Passages of the workspace sent with the question' });
    const layout = await list.evaluate((ul) => {
      const bounds = ul.getBoundingClientRect();
      return [...ul.querySelectorAll('.source-chip span')].map((label) => {
        const range = document.createRange();
        range.selectNodeContents(label);
        const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
        const chip = label.closest('li')!.getBoundingClientRect();
        return { text: label.textContent, lines, inside: chip.left >= bounds.left - 1 && chip.right <= bounds.right + 1, top: Math.round(chip.top) };
      });
    });
    for (const chip of layout) {
      assert.equal(chip.lines, 1, `${chip.text} is on one line`);
      assert.ok(chip.inside, `${chip.text} stays inside the panel`);
    }
    assert.ok(new Set(layout.map((chip) => chip.top)).size > 1, `the chips wrap onto more rows: ${JSON.stringify(layout)}`);
    const longest = view.page.getByRole('link', { name: /with-a-file-name/ });
    assert.equal(await longest.evaluate((link) => getComputedStyle(link.querySelector('span')!).textOverflow), 'ellipsis');
  });

  it('warnings about attachments stacked in a small panel leave most of the conversation in view, and scroll', async () => {
    view = await harness.reopen({ width: 300, height: 420 });
    const picture: AttachmentChip = { id: 'p1', label: 'shot.png', title: 'shot.png, 1 KB', picture: servedPicture(view.origin, 'p1') };
    await view.send(state({ model: 'GigaChat-2', attachments: [picture], turns: [userTurn('u1', 'Что на снимке?'), assistantTurn('a1', 'Пришлите снимок.')] }));
    const refusals = ['second.png', 'third.png', 'fourth.png', 'fifth.png'].map(
      (name) =>
        `${name} is not attached: GigaChat takes one picture per message, and this message has one. Send it first and attach the next picture to the next message, or remove the picture attached.`,
    );
    await view.send({ type: 'attachmentsRefused', messages: refusals });
    assert.equal(await view.page.locator('.picture-model-warning').isVisible(), true);
    const heights = await view.page.evaluate(() => ({
      panel: window.innerHeight,
      transcript: document.querySelector('.transcript')!.getBoundingClientRect().height,
      inputBottom: document.querySelector('textarea')!.getBoundingClientRect().bottom,
    }));
    assert.ok(heights.transcript >= heights.panel * 0.4, `the conversation keeps ${heights.transcript} of ${heights.panel} px`);
    assert.ok(heights.inputBottom <= heights.panel, `the input stays in the panel: ${JSON.stringify(heights)}`);
    const refusalBox = view.page.locator('.attachment-refusals');
    const scrolls = await refusalBox.evaluate((box) => ({ scroll: box.scrollHeight, client: box.clientHeight, overflow: getComputedStyle(box).overflowY }));
    assert.ok(scrolls.scroll > scrolls.client && scrolls.overflow === 'auto', `every refusal can still be read: ${JSON.stringify(scrolls)}`);
  });

  it('a table that fits wraps its cells between words and does not scroll', async () => {
    view = await harness.reopen({ width: 420 });
    const table = '| Name | Meaning |\n|---|---|\n| retry | Tries the upload again after a pause that grows each time it fails |';
    await view.send(state({ turns: [assistantTurn('a1', table)] }));
    const box = view.page.locator('.table-scroll');
    const sizes = await box.evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
    assert.ok(sizes.scroll <= sizes.client, `it fits: ${JSON.stringify(sizes)}`);
    assert.deepEqual(await brokenWords(view.page), []);
  });

  it('a table streamed in gets the same box as the finished reply', async () => {
    await view.send(state({ turns: [assistantTurn('a1', '', { status: 'streaming' })], busy: true }));
    await view.send({ type: 'delta', turnId: 'a1', text: wideTable.slice(0, 400) });
    await view.send({ type: 'delta', turnId: 'a1', text: wideTable.slice(400) });
    await view.send({ type: 'turnUpdated', turn: assistantTurn('a1', wideTable) });
    assert.equal(await view.page.locator('.table-scroll[role="region"] > table').count(), 1);
  });
});
