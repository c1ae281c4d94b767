import * as assert from 'node:assert/strict';
import { endsInUndecidedDollar, MathScanner, type MathSpan } from '../../../../src/webview/render/mathDelimiters';

/** Every formula in `text`, scanning as markdown-it's inline rule does: at each position, then past what it found. */
function formulas(text: string, scanner = new MathScanner()): string[] {
  const found: string[] = [];
  for (let index = 0; index < text.length;) {
    // markdown-it's escape rule takes `\$` and `\\` before the math rule sees their second character.
    if (text[index] === '\\' && (text[index + 1] === '$' || text[index + 1] === '\\')) {
      index += 2;
      continue;
    }
    const span: MathSpan | undefined = scanner.at(text, index);
    if (!span) {
      index++;
      continue;
    }
    found.push(`${span.display ? 'display:' : ''}${span.tex}`);
    index = span.end;
  }
  return found;
}

describe('formula delimiters (pandoc rule for $)', () => {
  it('finds inline and displayed formulas in all four notations', () => {
    assert.deepEqual(formulas('Count: $1\\, 2\\, 3$, then $x$ and \\(y^2\\), $$\\frac{a}{b}$$ and \\[\\sum i\\].'), [
      '1\\, 2\\, 3',
      'x',
      'y^2',
      'display:\\frac{a}{b}',
      'display:\\sum i',
    ]);
  });

  it('leaves money as text: a closing $ needs a non-space before it and no digit after it', () => {
    assert.deepEqual(formulas('$1.5 million and $2 million'), []);
    assert.deepEqual(formulas('US$5 to US$10, $5-$10, from $3 to $ 4'), []);
    assert.deepEqual(formulas('costs $5 and $x$ is a formula'), ['5 and $x']);
  });

  it('needs a non-space right after an opening $', () => {
    assert.deepEqual(formulas('a $ x$ b'), []);
    assert.deepEqual(formulas('$x $ and $y$'), ['x $ and $y']);
  });

  it('takes \\$ outside a formula as a dollar, and inside one as TeX that does not close it', () => {
    assert.deepEqual(formulas('\\$x\\$ and \\$5'), []);
    assert.deepEqual(formulas('$a \\$ b$ and $$c \\$$ d$$'), ['a \\$ b', 'display:c \\$$ d']);
    assert.deepEqual(formulas('\\\\$x$'), ['x']);
  });

  it('finds no formula without its closing delimiter, or with nothing in it', () => {
    assert.deepEqual(formulas('$x and \\(y and \\[z and $$w'), []);
    assert.deepEqual(formulas('$$ $$, \\( \\) and \\[ \\]'), []);
  });

  it('stops at the limit it is given (the end of a link text)', () => {
    const scanner = new MathScanner();
    assert.equal(scanner.at('$x$ y', 0, 2), undefined);
    assert.deepEqual(scanner.at('$x$ y', 0, 3), { tex: 'x', display: false, end: 3 });
    assert.deepEqual(scanner.at('$x$ y', 0), { tex: 'x', display: false, end: 3 });
  });

  it('finds the same formulas when it remembers missing closers across calls on one text, and starts afresh on another', () => {
    const scanner = new MathScanner();
    const text = '$5 and $6, \\(a\\), \\(b and $$c';
    assert.deepEqual(formulas(text, scanner), ['a']);
    assert.deepEqual(formulas(text, scanner), ['a']);
    assert.deepEqual(formulas('$$d$$ and $e$', scanner), ['display:d', 'e']);
  });

  it('scans a paragraph full of dollars in linear time', () => {
    const text = '$5 '.repeat(200_000);
    const started = performance.now();
    assert.deepEqual(formulas(text), []);
    assert.ok(performance.now() - started < 1000, `took ${performance.now() - started} ms`);
  });

  it('holds back a lone last $ that is not escaped while a reply streams', () => {
    assert.equal(endsInUndecidedDollar('Here $x$'), true);
    assert.equal(endsInUndecidedDollar('$5 and $'), true);
    assert.equal(endsInUndecidedDollar('\\\\$'), true);
    assert.equal(endsInUndecidedDollar('a \\$'), false);
    assert.equal(endsInUndecidedDollar('$$x$$'), false);
    assert.equal(endsInUndecidedDollar('$x'), false);
  });
});
