import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { assistantTurn, state, userTurn, wideTable } from './fixtures';
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
