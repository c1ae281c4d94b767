import * as assert from 'node:assert/strict';
import { boundedText, TOOL_RESULT_BOUNDS } from '../../src/core';

describe("boundedText: a tool's result within bounds, saying what was cut", () => {
  it('holds a 2 MB one-line file to the bound, with a note of what was left out', () => {
    const { text, cutLines, cutChars } = boundedText('x'.repeat(2_000_000));
    assert.ok(text.length <= TOOL_RESULT_BOUNDS.maxChars + 64, `${text.length} characters`);
    assert.match(text, /\[line cut: 1,998,000 more characters\]/);
    assert.equal(cutLines, 1);
    assert.equal(cutChars, 1_998_000);
  });

  it('cuts each long line, keeps short ones, and holds the whole', () => {
    const lines = Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? `short ${i}` : 'y'.repeat(5_000)));
    const { text, cutLines } = boundedText(lines.join('\n'));
    assert.ok(text.length <= TOOL_RESULT_BOUNDS.maxChars + 64);
    assert.ok(text.startsWith('short 0\n'));
    assert.ok(cutLines >= 10);
    assert.match(text, /more characters not shown\]$/);
  });

  it('never splits a surrogate pair', () => {
    const { text } = boundedText('😀'.repeat(3_000), { maxLineChars: 2_001, maxChars: 40_000 });
    assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])/.test(text), 'no lone high surrogate');
  });

  it('gives text within bounds back unchanged', () => {
    const text = 'line 1\nline 2\n';
    assert.deepEqual(boundedText(text), { text, cutLines: 0, cutChars: 0 });
  });
});
