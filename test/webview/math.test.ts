import * as assert from 'node:assert/strict';
import { assistantTurn, state } from './fixtures';
import { KATEX_PATH, useView, View } from './harness';

/**
 * Formulas in replies, as a reader sees them: typeset by KaTeX (HTML and MathML), money and code
 * left alone, a formula still being written shown as text until it closes, a formula KaTeX cannot
 * read shown as its source, all under the view's CSP with fonts from the extension only. (The
 * harness checks after each test that no CSP violation, page error or outside request happened.)
 */
describe('chat webview: formulas', function () {
  this.timeout(60_000);
  let view: View;
  useView((opened) => (view = opened));

  /** Shows `content` as a finished reply and returns its body. */
  async function reply(content: string): Promise<void> {
    await view.send(state({ turns: [assistantTurn('a', content)] }));
  }

  /** What the reply's formulas are: each typeset one's TeX (from its MathML annotation), in order. */
  function typesetTex(): Promise<string[]> {
    return view.page.$$eval('.turn-assistant .turn-body .katex', (formulas) =>
      formulas.map((formula) => {
        const math = formula.querySelector('.katex-mathml math');
        const annotation = math?.querySelector('annotation[encoding="application/x-tex"]');
        if (math?.namespaceURI !== 'http://www.w3.org/1998/Math/MathML') return 'no MathML';
        return `${formula.closest('.katex-display') ? 'display ' : ''}${annotation?.textContent ?? ''}`;
      }),
    );
  }

  /** The reply's text as it reads with its formulas taken out. */
  function textBesideFormulas(): Promise<string> {
    return view.page.$eval('.turn-assistant .turn-body', (body) => {
      const copy = body.cloneNode(true) as Element;
      for (const formula of copy.querySelectorAll('.katex')) formula.replaceWith('[math]');
      return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
    });
  }

  it('typesets inline and displayed formulas in all four notations, with MathML for screen readers', async () => {
    await reply('Count: $1\\, 2\\, 3$ and \\(x^2\\).\n\n$$\n\\frac{a}{b}\n$$\n\nAlso \\[\\sum_{i=1}^n i\\] here.');
    assert.deepEqual(await typesetTex(), ['1\\, 2\\, 3', 'x^2', 'display \n\\frac{a}{b}\n', 'display \\sum_{i=1}^n i']);
    assert.equal(await textBesideFormulas(), 'Count: [math] and [math]. [math] Also [math] here.');
    // KaTeX's stylesheet applies: the fraction is laid out (its rule is a drawn border), not a line of text.
    const fractionLine = await view.page.$eval('.katex .frac-line', (line) => getComputedStyle(line).borderBottomStyle);
    assert.equal(fractionLine, 'solid');
  });

  it('leaves money as text: $1.5 million and $2 million, US$5 to US$10, and an escaped \\$', async () => {
    await reply('It raised $1.5 million and $2 million. Prices: US$5 to US$10, or $ 3 $. A literal \\$x\\$ and \\$5.');
    assert.deepEqual(await typesetTex(), []);
    assert.equal(await textBesideFormulas(), 'It raised $1.5 million and $2 million. Prices: US$5 to US$10, or $ 3 $. A literal $x$ and $5.');
  });

  it('never typesets inside code spans or code blocks, which keep the source to copy', async () => {
    await reply('Use `$x$` in TeX.\n\n```tex\n$$\\frac{1}{2}$$ and $y$\n```\n\nBut $z$ is a formula.');
    assert.deepEqual(await typesetTex(), ['z']);
    assert.equal(await view.page.$eval('.turn-body :not(pre) > code', (code) => code.textContent), '$x$');
    assert.equal(await view.page.$eval('.code-block pre > code', (code) => code.textContent), '$$\\frac{1}{2}$$ and $y$\n');
    await view.page.click('.code-block button[data-code-action="copy"]');
    assert.deepEqual(await view.postedOfType('copyCode'), [{ type: 'copyCode', code: '$$\\frac{1}{2}$$ and $y$', language: 'tex' }]);
  });

  it('shows a formula KaTeX cannot read as its source, with the reason in the tooltip, and the rest of the reply as usual', async () => {
    await reply('Before $\\frac{1}{$ and $\\badcommand{x}$ then $ok^2$.\n\n**After** it.');
    const errors = await view.page.$$eval('.turn-body .katex-error', (nodes) => nodes.map((node) => [node.textContent, node.getAttribute('title') ?? '']));
    assert.equal(errors.length, 1, 'the unparsable formula is an error');
    assert.equal(errors[0][0], '\\frac{1}{');
    assert.match(errors[0][1], /ParseError/);
    // An unknown command is typeset in the error colour, the formula around it kept.
    assert.deepEqual(await typesetTex(), ['\\badcommand{x}', 'ok^2']);
    assert.equal(await view.page.$eval('.turn-body strong', (strong) => strong.textContent), 'After');
  });

  it('makes no link of \\href or \\url, whatever their address', async () => {
    await reply('See $\\href{javascript:alert(1)}{x}$ and $\\url{https://example.com}$ and \\(\\includegraphics{https://example.com/a.png}\\).');
    assert.equal(await view.page.$$eval('.turn-body a, .turn-body img, .turn-body [href], .turn-body [src]', (nodes) => nodes.length), 0);
    const shown = await view.page.$eval('.turn-body', (body) => body.textContent ?? '');
    assert.match(shown, /\\href/);
    await view.page.click('.turn-body .katex');
    assert.deepEqual(await view.postedOfType('openLink'), []);
  });

  it('shows a streamed formula as text while it arrives, typeset once it closes, and money as text when a digit follows', async () => {
    await view.send(state({ busy: true, turns: [assistantTurn('s', '', { status: 'streaming' })] }));
    const shown = async () => ({ text: (await view.page.$eval('.turn-body', (body) => body.textContent ?? '')).trim(), tex: await typesetTex() });
    const deltas: [string, { text: string; tex: string[] } | { tex: string[] }][] = [
      ['Here $\\frac{a', { text: 'Here $\\frac{a', tex: [] }],
      ['}{b}', { text: 'Here $\\frac{a}{b}', tex: [] }],
      // The closing `$` waits for the next character, which could make it money.
      ['$', { text: 'Here $\\frac{a}{b}', tex: [] }],
      [' and', { tex: ['\\frac{a}{b}'] }],
      [' $5 or $', { tex: ['\\frac{a}{b}'] }],
      ['10 each.', { tex: ['\\frac{a}{b}'] }],
    ];
    for (const [delta, expected] of deltas) {
      await view.send({ type: 'delta', turnId: 's', text: delta });
      const now = await shown();
      if ('text' in expected) assert.deepEqual(now, expected, `after ${JSON.stringify(delta)}`);
      else assert.deepEqual(now.tex, expected.tex, `after ${JSON.stringify(delta)}`);
      assert.equal(await view.page.$$eval('.turn-body .katex-error', (nodes) => nodes.length), 0, 'no half formula flashes up as an error');
    }
    assert.equal(await textBesideFormulas(), 'Here [math] and $5 or $10 each.');
  });

  it('typesets a finished block of a streaming reply once: its formula is the very same node while later text streams', async () => {
    await view.send(state({ busy: true, turns: [assistantTurn('s', '', { status: 'streaming' })] }));
    await view.send({ type: 'delta', turnId: 's', text: 'First $a^2 + b^2$.\n\nSecond' });
    await view.page.evaluate(() => {
      (window as unknown as { firstFormula: Element | null }).firstFormula = document.querySelector('.turn-body .katex');
    });
    for (const delta of [' grows', ' with $c', '^2$', ' and more.\n\n', 'Third.']) await view.send({ type: 'delta', turnId: 's', text: delta });
    const same = await view.page.evaluate(() => {
      const first = (window as unknown as { firstFormula: Element | null }).firstFormula;
      return first !== null && first.isConnected && document.querySelector('.turn-body .katex') === first;
    });
    assert.equal(same, true, 'the finished block was not drawn again');
    assert.deepEqual(await typesetTex(), ['a^2 + b^2', 'c^2']);
  });

  /** The formulas shown as their source, as code with the reason in the tooltip. */
  function formulasAsSource(): Promise<string[]> {
    return view.page.$$eval('.turn-assistant .turn-body code.math-source', (codes) =>
      codes.map((code) => (code.getAttribute('title') ? (code.textContent ?? '') : 'no tooltip')),
    );
  }

  const nested = (open: string, close: string, depth: number) => `${open.repeat(depth)}x${close.repeat(depth)}`;

  it('shows a deeply nested formula as its source, as code, and typesets the formulas around it', async () => {
    const deep = nested('\\frac{1}{1+', '}', 40);
    const continued = nested('\\cfrac{1}{a+', '}', 8);
    await reply(`Take $a^2$ and $${deep}$ or $${continued}$.\n\n**After** it.`);
    assert.deepEqual(await typesetTex(), ['a^2', continued]);
    assert.deepEqual(await formulasAsSource(), [deep]);
    assert.equal(await view.page.$eval('.turn-body strong', (strong) => strong.textContent), 'After');
  });

  it('shows a macro that expands into a huge formula as its source', async () => {
    const macro = `\\def\\a{${'\\frac{x}{y}'.repeat(20)}}\\def\\b{${'\\a'.repeat(10)}}\\b\\b\\b\\b\\b\\b\\b\\b\\b\\b`;
    await reply(`Huge: $${macro}$, small: $z$.`);
    assert.deepEqual(await formulasAsSource(), [macro]);
    assert.deepEqual(await typesetTex(), ['z']);
  });

  /** Distinct formulas of about 4,700 elements each: the answer's budget covers 5 of them. */
  const heavyFormulas = Array.from({ length: 8 }, (_, index) => `\\underbrace{x_{${index}}}_{y}`.repeat(80));

  it("stops typesetting an answer's formulas once they are too large together: the rest shows as source", async () => {
    await reply(`${heavyFormulas.map((tex, index) => `Step ${index}: $$${tex}$$`).join('\n\n')}\n\n**Done**.`);
    const typesetCount = (await typesetTex()).length;
    assert.ok(typesetCount > 0 && typesetCount < heavyFormulas.length, `${typesetCount} of ${heavyFormulas.length} typeset`);
    assert.deepEqual(await formulasAsSource(), heavyFormulas.slice(typesetCount), 'the first ones typeset, the rest as source, in order');
    assert.equal(await view.page.$eval('.turn-body strong', (strong) => strong.textContent), 'Done');
  });

  it('gives a streamed answer the same formula budget as the whole answer shown at once', async () => {
    const content = heavyFormulas.map((tex, index) => `Step ${index}: $$${tex}$$`).join('\n\n');
    await reply(content);
    const whole = { tex: await typesetTex(), source: await formulasAsSource() };
    await view.send(state({ busy: true, turns: [assistantTurn('s', '', { status: 'streaming' })] }));
    for (const block of content.split(/(?<=\n\n)/)) await view.send({ type: 'delta', turnId: 's', text: block });
    await view.send({ type: 'delta', turnId: 's', text: '\n\nEnd.' });
    assert.deepEqual({ tex: await typesetTex(), source: await formulasAsSource() }, whole);
  });

  it('loads KaTeX fonts from the extension only, under the CSP', async () => {
    await reply('$\\mathbb{R} \\ni x = \\sqrt{\\frac{1}{2}}$ and $$\\left(\\begin{matrix}1\\\\2\\\\3\\\\4\\\\5\\end{matrix}\\right)$$');
    await view.page.evaluate(() => document.fonts.ready);
    const fonts = await view.page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => entry.name)
        .filter((name) => /\.woff2?$|\.ttf$/.test(name)),
    );
    assert.ok(fonts.length > 0, 'fonts were loaded');
    for (const font of fonts) assert.ok(font.startsWith(`${view.origin}${KATEX_PATH}fonts/`) && font.endsWith('.woff2'), font);
    const loaded = await view.page.evaluate(() => [...document.fonts].filter((face) => face.status === 'loaded').map((face) => face.family));
    assert.ok(loaded.includes('KaTeX_Main'), `KaTeX_Main loaded (${loaded.join(', ')})`);
    assert.deepEqual(view.consoleErrors, []);
  });

  it('copies a selection with its formulas as LaTeX between dollars, and the reply as its markdown source', async () => {
    await reply('Area: $\\pi r^2$, and\n\n$$E = mc^2$$');
    const copied = await view.page.evaluate(() => {
      const selection = window.getSelection();
      selection?.selectAllChildren(document.querySelector('.turn-assistant .turn-body') as Element);
      const clipboardData = new DataTransfer();
      document.querySelector('.turn-assistant .turn-body p')?.dispatchEvent(new ClipboardEvent('copy', { clipboardData, bubbles: true, cancelable: true }));
      return clipboardData.getData('text/plain');
    });
    assert.equal(copied.replace(/\s+/g, ' ').trim(), 'Area: $\\pi r^2$, and $$E = mc^2$$');
    await view.page.click('.turn-assistant [data-turn-action="copy"]');
    // The host copies the reply's text as the model wrote it (chatViewProvider.ts, replyText).
    assert.deepEqual(await view.postedOfType('copyReply'), [{ type: 'copyReply', turnId: 'a' }]);
  });
});
