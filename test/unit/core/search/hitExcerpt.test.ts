import * as assert from 'node:assert/strict';
import { chunkText, hitExcerpt, MAX_EXCERPT_CHARS, quotedLines } from '../../../../src/core';
import { MASK } from '../../../../src/core/workspace/secretShapes';

describe('hitExcerpt: what a question quotes of a search result', () => {
  it('quotes short lines whole', () => {
    assert.deepEqual(hitExcerpt('const a = 1;\nconst b = 2;', 'const a'), { code: 'const a = 1;\nconst b = 2;', cut: false });
  });

  it('quotes a piece of a one-line megabyte file from where the hit starts, within the limit', () => {
    // A one-line JSON file of 1 MB: the search hit is one chunk of its only line.
    const line = JSON.stringify(Array.from({ length: 40_000 }, (_, i) => ({ id: i, name: `item-${i}` })));
    assert.ok(line.length > 1_000_000);
    const chunks = chunkText(line, { maxChars: 1500 });
    const hit = chunks[300];
    const { code, cut } = hitExcerpt(line, hit.text.slice(0, 300));
    assert.ok(cut);
    assert.equal(code.length, MAX_EXCERPT_CHARS);
    assert.ok(code.startsWith(hit.text), 'the quoted window holds the chunk that matched');
  });

  it('falls back to the start when the file changed, and near the end keeps a full window', () => {
    const line = 'x'.repeat(10_000);
    assert.equal(hitExcerpt(line, 'not in the file any more').code, 'x'.repeat(MAX_EXCERPT_CHARS));
    const tail = `${'a'.repeat(9_000)}${'b'.repeat(1_000)}`;
    assert.equal(hitExcerpt(tail, 'b'.repeat(300)).code.length, MAX_EXCERPT_CHARS, 'a hit near the end still gets a whole window');
  });

  it('never cuts an emoji (a surrogate pair) in two', () => {
    const line = '😀'.repeat(5_000);
    for (const preview of ['', '😀', `x${'😀'}`]) {
      const { code } = hitExcerpt(line.slice(1), preview); // starts with a lone low surrogate
      assert.ok(!/^[\uDC00-\uDFFF]/.test(code) && !/[\uD800-\uDBFF]$/.test(code), `a broken pair at an edge of ${JSON.stringify(code.slice(0, 4))}`);
    }
  });

  it('a search result quoted to the model or the agent masks what looks like a token, and counts it', () => {
    const token = `ghp_${'Z9y8X7w6V5'.repeat(4)}`;
    const lines = `const api = new Client({\n  token: '${token}',\n  password: 'correct-horse',\n});`;
    const quoted = quotedLines(lines, 'const api');
    assert.deepEqual(quoted, { code: `const api = new Client({\n  token: '${MASK}',\n  password: ${MASK},\n});`, cut: false, masked: 2 });
    // In a minified line, the window is cut from the masked text: no token is left in part at its edge.
    const minified = `var a="${'x'.repeat(3_980)}",t="${token}",b="${'y'.repeat(10_000)}";`;
    const window = quotedLines(minified, '');
    assert.ok(window.cut && window.masked === 1 && !window.code.includes(token.slice(0, 8)));
    assert.deepEqual(quotedLines('const a = 1;', 'const a'), { code: 'const a = 1;', cut: false, masked: 0 });
  });
});
