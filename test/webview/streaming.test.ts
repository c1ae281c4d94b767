import * as assert from 'node:assert/strict';
import { webviewStrings } from '../../src/shared/strings';
import { BlockScanner } from '../../src/webview/render/blockScanner';
import { closeUnfinished, MAY_CONTINUE_ADDRESS, splitUnfinishedLine } from '../../src/webview/render/unfinishedMarkdown';
import { assistantTurn, randomSplits, servedPicture, state, streamingCorpus } from './fixtures';
import { useView, View } from './harness';

/**
 * What a reader sees after each frame of a streamed text, as the view promises it: the complete
 * blocks (see BlockScanner) exactly as one render of them, highlighting included; in an open code
 * fence, the code as it arrives in its code block; anything else rendered as it arrives, prepared
 * as unfinishedMarkdown.ts says (a last line of bare block syntax held back, unclosed markers
 * closed).
 */
interface FrameExpectation {
  complete: string;
  /** The open code block's code (a last line that could still close the fence is not shown yet). */
  code?: string;
  /** Markdown whose one render is what the rest shows; undefined for a rest too long to be rendered on every frame (tested on its own). */
  rest?: string;
  /** The rest as written, but for punctuation that may yet belong to an address: one it ends in is still text (see markdown.ts). */
  addressEnd?: string;
}

const IMAGE_MARKER = '\uFFFC';

/** Letters and digits only: what shows of a text whether or not its markdown syntax is rendered yet. */
const letters = (text: string) => text.replace(/[^\p{L}\p{N}]/gu, '');
/** The longest rest rendered again on every frame (StreamingTail's live limit). */
const LIVE_RENDER_LIMIT = 2000;

function expectations(frames: string[][]): FrameExpectation[] {
  const scanner = new BlockScanner();
  let sent = '';
  return frames.map((deltas) => {
    for (const delta of deltas) {
      sent += delta;
      scanner.push(delta);
    }
    const { boundary } = scanner;
    const complete = sent.slice(0, boundary);
    if (scanner.inFence && scanner.fenceAtColumnZero && scanner.fenceStart === boundary) {
      const code = sent.slice(scanner.fenceContentStart).replaceAll(IMAGE_MARKER, '');
      const lastLine = code.slice(code.lastIndexOf('\n') + 1);
      return { complete, code: /^ {0,3}(?:`+|~+)?[ \t]*$/.test(lastLine) ? code.slice(0, code.length - lastLine.length) : code };
    }
    const rest = sent.slice(boundary);
    if (rest.length > LIVE_RENDER_LIMIT) return { complete };
    const [shown] = splitUnfinishedLine(rest);
    return { complete, rest: closeUnfinished(shown), addressEnd: shown.replace(MAY_CONTINUE_ADDRESS, '') };
  });
}

describe('chat webview: streaming replies', function () {
  this.timeout(60_000);
  let view: View;
  useView((opened) => (view = opened));

  async function startStream(): Promise<void> {
    const conversationId = `c${Math.random()}`;
    await view.send(state({ busy: true, conversationId }));
    await view.send({ type: 'turnAdded', conversationId, turn: assistantTurn('s', '', { status: 'streaming' }) });
    await view.send({ type: 'turnAdded', conversationId, turn: assistantTurn('ref', '') });
    await view.send({ type: 'turnAdded', conversationId, turn: assistantTurn('restRef', '') });
  }

  it("a reply waiting for the account's stream shows a quiet line, Stop still stops, and the first text replaces the line", async () => {
    await startStream();
    const placeholder = view.page.locator('.turn.streaming .thinking');
    assert.equal(await placeholder.innerText(), webviewStrings.thinking);
    await view.send({ type: 'replyWaiting', turnId: 's', waiting: true });
    assert.equal(await placeholder.isVisible(), true);
    assert.equal(await placeholder.innerText(), webviewStrings.waitingForStream);
    assert.equal(await placeholder.locator('.dots').isVisible(), false, 'no pulse: nothing is being written yet');
    // A notice redraws the turn meanwhile: it still says it waits.
    await view.send({ type: 'turnUpdated', turn: assistantTurn('s', '', { status: 'streaming', notice: 'Uploading 1 file' }) });
    assert.equal(await placeholder.innerText(), webviewStrings.waitingForStream);
    await view.page.locator('.send-button').click();
    assert.deepEqual(await view.postedOfType('stop'), [{ type: 'stop' }]);
    await view.send({ type: 'replyWaiting', turnId: 's', waiting: false });
    await view.send({ type: 'delta', turnId: 's', text: 'The stream is free.' });
    assert.equal(await placeholder.isVisible(), false);
    assert.equal(await view.page.locator('.turn.streaming .turn-body').innerText(), 'The stream is free.');
  });

  /**
   * Streams `frames` (each an array of deltas delivered together, then one frame drawn) into turn
   * `s` and checks every frame against `expectations`, using turn `ref` for one render of the
   * complete blocks and `restRef` for one render of what the rest shows. Complete blocks must also
   * stay the very same nodes until the end.
   */
  async function streamAndCheck(frames: string[][], checkEachFrame = true): Promise<unknown> {
    await startStream();
    return view.page.evaluate(
      async ({ frames, expected, checkEachFrame }) => {
        const frame = () => new Promise((resolve) => setTimeout(() => requestAnimationFrame(() => resolve(undefined)), 0));
        // A finished turn drops the places of pictures that never came; a streaming one shows them.
        const isSlot = (node: Node) => node instanceof Element && node.matches('.image-slot');
        const serialize = (node: Node) => {
          if (!(node instanceof Element)) return node.nodeValue;
          const copy = node.cloneNode(true) as Element;
          for (const slot of copy.querySelectorAll('.image-slot')) slot.remove();
          return copy.outerHTML;
        };
        // The rest is rendered without highlighting (it comes once its code is complete).
        /** The nodes' HTML without highlighting and image slots; `unlinkEnd`: the text the last link may end. */
        const unhighlighted = (nodes: Node[], unlinkEnd?: string) => {
          const box = document.createElement('div');
          for (const node of nodes) if (!isSlot(node)) box.appendChild(node.cloneNode(true));
          for (const slot of box.querySelectorAll('.image-slot')) slot.remove();
          for (const span of box.querySelectorAll('[class^="hljs-"]')) span.replaceWith(...span.childNodes);
          const lastLink = [...box.querySelectorAll('a')].at(-1);
          if (lastLink?.textContent && unlinkEnd?.endsWith(lastLink.textContent)) lastLink.replaceWith(...lastLink.childNodes);
          box.normalize();
          return box.innerHTML;
        };
        let kept: Node[] = [];
        let sent = '';
        for (const [index, deltas] of frames.entries()) {
          for (const text of deltas) {
            sent += text;
            window.postMessage({ type: 'delta', turnId: 's', text }, '*');
          }
          if (!checkEachFrame) continue;
          const expect = expected[index];
          window.postMessage({ type: 'turnUpdated', turn: { id: 'ref', role: 'assistant', content: expect.complete, status: 'done' } }, '*');
          window.postMessage({ type: 'turnUpdated', turn: { id: 'restRef', role: 'assistant', content: expect.rest ?? '', status: 'done' } }, '*');
          await frame();
          // A finished turn's body is a new element each time it is drawn: look it up every frame.
          const [streamed, reference, restReference] = document.querySelectorAll('.turn-assistant .turn-body');
          const nodes = [...streamed.childNodes].filter((node) => !isSlot(node));
          const completeCount = reference.childNodes.length;
          const complete = nodes.slice(0, completeCount).map(serialize);
          const once = [...reference.childNodes].map(serialize);
          if (complete.join('') !== once.join('')) return { sent, problem: 'complete blocks differ from one render', complete, once };
          if (kept.some((node, at) => nodes[at] !== node)) return { sent, problem: 'a complete block was drawn again' };
          kept = nodes.slice(0, completeCount);
          const rest = nodes.slice(completeCount);
          if (expect.code !== undefined) {
            const blocks = rest.filter((node): node is Element => node instanceof Element);
            const code = blocks.length === 1 ? blocks[0].querySelector('.code-block pre > code') : null;
            if (!code) return { sent, problem: 'no code block for the open fence', rest: rest.map(serialize) };
            if (code.textContent !== expect.code) return { sent, problem: 'code differs', shown: code.textContent, expected: expect.code };
            if (code.querySelector('[class^="hljs-"]')) return { sent, problem: 'highlighted before the block is complete' };
          } else if (expect.rest !== undefined) {
            const shown = unhighlighted(rest);
            const once = unhighlighted([...restReference.childNodes], expect.addressEnd);
            if (shown !== once) return { sent, problem: 'the rest is not shown as one render of it', shown, once };
          }
        }
        await frame();
        (window as unknown as { __kept: Node[] }).__kept = kept;
        return undefined;
      },
      { frames, expected: expectations(frames), checkEachFrame },
    );
  }

  /** Finishes turn `s` with `doc`: the DOM must be exactly one render of `doc`, complete blocks kept. */
  async function finishMatches(doc: string, label: string, keepsBlocks = true): Promise<void> {
    await view.send({ type: 'turnUpdated', turn: assistantTurn('ref', doc) });
    await view.send({ type: 'turnUpdated', turn: assistantTurn('s', doc) });
    const [finalHtml, referenceHtml] = await view.page.evaluate(() =>
      [...document.querySelectorAll('.turn-assistant .turn-body')].map((body) => body.innerHTML),
    );
    assert.equal(finalHtml, referenceHtml, `${label}: final HTML`);
    if (!keepsBlocks) return;
    const kept = await view.page.evaluate(() => (window as unknown as { __kept: Node[] }).__kept.every((node) => node.isConnected));
    assert.ok(kept, `${label}: the blocks drawn while streaming are still the ones shown`);
  }

  it('deltas split at random points: complete blocks final and exact, the rest rendered as it arrives, then one render', async function () {
    // WEBVIEW_FUZZ_SEEDS=200 runs more seeds (and longer pieces) for a deeper search.
    const extra = Number(process.env.WEBVIEW_FUZZ_SEEDS ?? 0);
    this.timeout(90_000 + extra * 15_000);
    const seeds = [1, 7, 42, 1001, ...Array.from({ length: extra }, (_, i) => 5000 + i)];
    for (const [docIndex, doc] of streamingCorpus.entries()) {
      for (const seed of seeds) {
        // 1–3 deltas per frame, as when the host sometimes outpaces the display.
        const pieces = randomSplits(doc, seed >= 5000 ? 2 + (seed % 40) : 12, seed + docIndex);
        const frames: string[][] = [];
        for (let index = 0; index < pieces.length; frames.push(pieces.slice(index, index + 1 + (index % 3))), index += 1 + (index % 3));
        // Link reference definitions reach back across blocks: such a reply is rendered whole at the end.
        const references = /^\[\w+\]:/m.test(doc);
        const mismatch = await streamAndCheck(frames, !references);
        assert.equal(mismatch, undefined, `document ${docIndex}, seed ${seed}: ${JSON.stringify(mismatch)}`);
        await finishMatches(doc, `document ${docIndex}, seed ${seed}`, !references);
      }
    }
  });

  it('splits where the next characters change the structure', async () => {
    const cases: string[][] = [
      ['```js', '\ncode', ' more', '\n  ', 'x', '\n', '``', '`', '\nafter'],
      ['para\n-', ' x', ' y'],
      ['para\n=', '=', ' no'],
      ['1', '2', '.', ' item', ' more'],
      ['mail user@example', '.com', ' now'],
      ['# foo #', 'x', ' y', '\n', 'next'],
      ['word  ', 'next', '  ', '\n', 'line'],
      ['[a](https://x.org "t', ' more', '")', ' after'],
      ['**bold', ' text', '** done', '\n\n', 'next'],
      ['- a', '\n- b', ' c', '\n\n', 'para', ' end'],
      ['> quote', '\n> -', ' item', ' more', '\n\n', 'out'],
      ['| a | b', ' c', '\n|---|---|', '\n| 1 | 2', ' 3', '\n\n', 'after'],
      ['text\n    ', 'indented', ' lazy'],
      ['~~~\n', '   ', '\n', 'a', '\n~~', '~\n', 'out'],
      ['```\n', 'a\n', '``', '` not closing\n', '```', '\n', 'b'],
      ['  ```py\n', 'indented fence\n', '  ```\n', 'after'],
      ['- item\n', '  ```ts\n', '  code\n', '  ```\n', '\nDone'],
      ['Рисую:\n\n', '\uFFFC', '\n\nГотово', ' \uFFFC', ' и ещё'],
      ['```\ncode with \uFFFC marker', '\n```\n', 'x'],
    ];
    for (const deltas of cases) {
      const mismatch = await streamAndCheck(deltas.map((delta) => [delta]));
      assert.equal(mismatch, undefined, `${JSON.stringify(deltas)}: ${JSON.stringify(mismatch)}`);
      await finishMatches(deltas.join(''), JSON.stringify(deltas));
    }
  });

  it('formats the unfinished block as it arrives, without flashing what it will not become', async () => {
    await startStream();
    const body = view.page.locator('.turn-assistant').first().locator('.turn-body');
    const send = (text: string) => view.send({ type: 'delta', turnId: 's', text });
    await send('For **asynchronous');
    assert.equal(await body.locator('p > strong').textContent(), 'asynchronous', 'bold as it is written');
    await send(' code, use `aiofi');
    assert.equal(await body.locator('p > strong > code').textContent(), 'aiofi', 'code inside the bold, both open');
    assert.doesNotMatch((await body.textContent()) ?? '', /\*/, 'no marker shown as written');
    await send('les`** and [the docs](https://exa');
    assert.equal(await body.locator('p > strong').textContent(), 'asynchronous code, use aiofiles');
    assert.equal(await body.getByRole('link', { name: 'the docs' }).count(), 0, 'a link only once it is complete');
    assert.match((await body.textContent()) ?? '', /and \[the docs\]\(https:\/\/exa\s*$/);
    await send('mple.org).\n-');
    assert.equal(await body.getByRole('link', { name: 'the docs' }).getAttribute('href'), 'https://example.org');
    assert.equal(await body.locator('h2, ul').count(), 0, 'a lone - is neither a heading underline nor an empty item yet');
    assert.match((await body.textContent()) ?? '', /the docs\.\s*$/);
    await send(' first *item');
    assert.equal(await body.locator('ul > li').textContent(), 'first item');
    assert.equal(await body.locator('ul > li > em').textContent(), 'item');
    await send('*\n\n##');
    assert.equal(await body.locator('h2').count(), 0, 'no empty heading');
    await send(' Next step');
    assert.equal(await body.locator('h2').textContent(), 'Next step');
    await send('\n\n```ty');
    assert.equal(await body.locator('.code-block').count(), 0, 'no code block before its language is known');
    await send('pescript\nconst a = 1;');
    assert.equal(await body.locator('.code-block .code-lang').textContent(), 'typescript');
    assert.equal(await body.locator('.code-block code').textContent(), 'const a = 1;');
  });

  it('makes a bare address a link only once it is written out', async () => {
    await startStream();
    const body = view.page.locator('.turn-assistant').first().locator('.turn-body');
    const send = (text: string) => view.send({ type: 'delta', turnId: 's', text });
    await send('The guide is at https://example.org/gui');
    assert.equal(await body.locator('a').count(), 0, 'no link to a half-written address');
    assert.match((await body.textContent()) ?? '', /at https:\/\/example\.org\/gui\s*$/, 'the address so far, as text');
    await send('de.');
    assert.equal(await body.locator('a').count(), 0, 'a full stop may yet be part of the address');
    await send(' And **see https://exa');
    assert.equal(await body.locator('a').getAttribute('href'), 'https://example.org/guide', 'a link once a word follows');
    assert.equal(await body.locator('a').count(), 1, 'inside bold, still written: no link yet');
    assert.match((await body.textContent()) ?? '', /guide\. And see https:\/\/exa\s*$/);
    await send('mple.org/faq**');
    assert.equal(await body.locator('strong > a').getAttribute('href'), 'https://example.org/faq', 'written out: the closing ** follows it');
  });

  it('shows code as it arrives and highlights it once its block is complete', async () => {
    await startStream();
    const code = view.page.locator('.turn-assistant').first().locator('.code-block code');
    for (const text of ['Here:\n\n```python\n', 'def double(x):\n', '    return x * 2']) await view.send({ type: 'delta', turnId: 's', text });
    assert.equal(await code.textContent(), 'def double(x):\n    return x * 2');
    assert.equal(await code.locator('.hljs-keyword').count(), 0, 'not highlighted while open');
    assert.equal(await view.page.locator('.turn-assistant').first().locator('.code-lang').textContent(), 'python');
    await view.send({ type: 'delta', turnId: 's', text: '\n```\n' });
    assert.ok((await code.locator('.hljs-keyword').count()) > 0, 'highlighted once the fence closes');
    await view.send({ type: 'delta', turnId: 's', text: 'Done.' });
    assert.ok((await code.locator('.hljs-keyword').count()) > 0);
  });

  it('renders a long block again as it grows, and new text continues inside it', async () => {
    await startStream();
    // Both blocks are longer than what is rendered on every frame.
    const list = Array.from({ length: 100 }, (_, i) => `- item ${i} with **bold** words`).join('\n');
    const paragraph = Array.from({ length: 100 }, (_, i) => `Sentence ${i} has *emphasis*.`).join(' ');
    assert.ok(list.length > LIVE_RENDER_LIMIT && paragraph.length > LIVE_RENDER_LIMIT);
    const doc = `${list}\n\n${paragraph}`;
    const body = view.page.locator('.turn-assistant').first().locator('.turn-body');
    const pieces = randomSplits(doc, 10, 3);
    const listEnd = doc.indexOf('\n\n');
    let sent = 0;
    for (const text of pieces) {
      await view.page.evaluate((text) => window.postMessage({ type: 'delta', turnId: 's', text }, '*'), text);
      sent += text.length;
      if (sent > listEnd - 20 && sent < listEnd) break;
    }
    await view.settle();
    // Well into the list: most of it is formatted, and the newest words are shown too.
    assert.ok((await body.locator('ul > li').count()) >= 50, 'items rendered as the list grows');
    assert.ok((await body.locator('ul strong').count()) >= 50);
    const shown = (await body.textContent()) ?? '';
    assert.ok(letters(shown).endsWith(letters(doc.slice(0, sent)).slice(-4)), `the newest text is shown: …${shown.slice(-40)}`);

    const rest = pieces.join('').slice(sent);
    const untilMidParagraph = rest.length - 100;
    await view.send({ type: 'delta', turnId: 's', text: rest.slice(0, untilMidParagraph) });
    // One paragraph, formatted up to where it was last rendered, the newest words flowing on in it.
    assert.equal(await body.locator(':scope > p').count(), 1);
    assert.ok((await body.locator(':scope > p em').count()) >= 50);
    const paragraphText = (await body.locator(':scope > p').textContent()) ?? '';
    assert.ok(letters(paragraphText).endsWith(letters(doc.slice(0, sent + untilMidParagraph)).slice(-4)), `…${paragraphText.slice(-40)}`);
    await view.send({ type: 'delta', turnId: 's', text: rest.slice(untilMidParagraph) });
    await finishMatches(doc, 'long block', false);
  });

  it('a reply stopped or failing mid-block ends as one render, with its note', async () => {
    const stopped = 'Intro\n\n```ts\nconst a = 1;\n';
    await startStream();
    await view.send({ type: 'delta', turnId: 's', text: stopped });
    await view.send({ type: 'turnUpdated', turn: assistantTurn('ref', stopped) });
    await view.send({ type: 'turnUpdated', turn: assistantTurn('s', stopped, { status: 'stopped' }) });
    const bodies = () => view.page.evaluate(() => [...document.querySelectorAll('.turn-assistant .turn-body')].map((body) => body.innerHTML));
    let [streamed, reference] = await bodies();
    assert.equal(streamed, reference);
    const turn = view.page.locator('.turn-assistant').first();
    assert.equal(await turn.locator('.note-stopped').textContent(), 'Stopped');
    assert.ok((await turn.locator('.hljs-keyword').count()) > 0, 'the cut-off code block is highlighted');
    assert.equal(await turn.getAttribute('aria-busy'), null);

    const failed = 'Some **bold';
    await startStream();
    await view.send({ type: 'delta', turnId: 's', text: failed });
    await view.send({ type: 'turnUpdated', turn: assistantTurn('ref', failed) });
    const error = { kind: 'network', message: 'The connection to GigaChat was lost.', actions: ['retry' as const] };
    await view.send({ type: 'turnUpdated', turn: assistantTurn('s', failed, { status: 'error', error }) });
    [streamed, reference] = await bodies();
    assert.equal(streamed, reference);
    assert.equal(await turn.locator('.error-message').textContent(), error.message);
    assert.equal(await view.page.locator('.sr-only p').last().textContent(), error.message);
  });

  it('announces each complete block to screen readers, then the end of the reply', async () => {
    await startStream();
    for (const text of ['First paragraph', ' with words.\n\n', 'Second', ' one.']) await view.send({ type: 'delta', turnId: 's', text });
    const announced = () => view.page.locator('.sr-only p').allTextContents();
    assert.deepEqual(await announced(), ['First paragraph with words.'], 'a complete block, once; not the text still arriving');
    await view.send({ type: 'turnUpdated', turn: assistantTurn('s', 'First paragraph with words.\n\nSecond one.') });
    assert.deepEqual(await announced(), ['First paragraph with words.', 'Second one.', webviewStrings.replyFinished]);
  });

  it('coalesces deltas into one drawing pass per frame', async () => {
    await view.send(state({ busy: true }));
    await view.send({ type: 'turnAdded', conversationId: 'c1', turn: assistantTurn('s', '', { status: 'streaming' }) });
    const mutations = await view.page.evaluate(async () => {
      const body = document.querySelector('.turn-assistant .turn-body')!;
      let batches = 0;
      const observer = new MutationObserver(() => batches++);
      observer.observe(body, { childList: true, subtree: true, characterData: true });
      // Frames that passed while the deltas arrived: a busy machine may fit one between two messages.
      let frames = 0;
      let counting = true;
      const count = () => {
        frames++;
        if (counting) requestAnimationFrame(count);
      };
      requestAnimationFrame(count);
      for (let index = 0; index < 50; index++) window.postMessage({ type: 'delta', turnId: 's', text: `word${index} ` }, '*');
      await new Promise((resolve) => setTimeout(resolve, 0));
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      counting = false;
      observer.disconnect();
      return { batches, frames, text: body.textContent };
    });
    assert.ok(
      mutations.batches >= 1 && mutations.batches <= mutations.frames,
      `at most one drawing pass per frame: ${mutations.batches} passes in ${mutations.frames} frames`,
    );
    assert.ok(mutations.batches < 10, `50 deltas coalesced into a few passes, not one each (${mutations.batches})`);
    assert.match(mutations.text ?? '', /^word0 word1 .* word49\s*$/);
  });

  it('shows image placeholders while streaming and the images in the final state', async () => {
    await view.send(state({ busy: true }));
    await view.send({ type: 'turnAdded', conversationId: 'c1', turn: assistantTurn('a', 'Рисую:\n\n', { status: 'streaming' }) });
    await view.send({ type: 'delta', turnId: 'a', text: '\uFFFC\n\nГотово' });
    assert.equal(await view.page.locator('.image-slot').count(), 1);
    await view.send({ type: 'turnUpdated', turn: assistantTurn('a', 'Рисую:\n\n\uFFFC\n\nГотово', { images: [servedPicture(view.origin, 'f')] }) });
    assert.equal(await view.page.locator('.image-slot').count(), 0);
    assert.equal(await view.page.locator('.reply-image').getAttribute('data-file-id'), 'f');
  });
});
