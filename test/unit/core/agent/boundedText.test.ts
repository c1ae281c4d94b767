import * as assert from 'node:assert/strict';
import { BOUND_NOTE_ALLOWANCE, boundedText, TOOL_RESULT_BOUNDS } from '../../../../src/core/agent/boundedText';

const { maxChars, maxLineChars } = TOOL_RESULT_BOUNDS;

/** Whether `text` holds half a surrogate pair (what a cut in the middle of an emoji leaves). */
function splitsAPair(text: string): boolean {
  return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}

describe("boundedText: a tool's result within bounds, saying what was cut", () => {
  it('holds a 2 MB one-line file to the bound, with a note of what was left out', () => {
    const { text, cutLines, cutChars } = boundedText('x'.repeat(2_000_000));
    assert.ok(text.length <= maxChars + BOUND_NOTE_ALLOWANCE, `${text.length} characters`);
    assert.equal(text, `${'x'.repeat(2_000)} … [line cut: 1,998,000 more characters]`);
    assert.equal(cutLines, 1);
    assert.equal(cutChars, 1_998_000);
  });

  it('cuts every long line to its start, and leaves the others whole (one just at the bound too)', () => {
    const lines = Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? `short line ${i}` : String(i).repeat(3_000)));
    lines[0] = 'v'.repeat(maxLineChars);
    const { text, cutLines, cutChars } = boundedText(lines.join('\n'));
    const shown = text.split('\n');
    assert.equal(shown.length, 10);
    for (let i = 0; i < 10; i++) {
      if (i % 2 === 0) assert.equal(shown[i], lines[i]);
      else assert.equal(shown[i], `${String(i).repeat(2_000)} … [line cut: 1,000 more characters]`);
    }
    assert.equal(cutLines, 5);
    assert.equal(cutChars, 5_000);
  });

  it('holds the whole to the bound, ending at a line with a note of the rest', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `${String(i).padStart(3, '0')} ${'y'.repeat(996)}`);
    const original = lines.join('\n');
    const { text, cutLines, cutChars } = boundedText(original);
    assert.ok(text.length <= maxChars + BOUND_NOTE_ALLOWANCE, `${text.length} characters`);
    const [kept, note] = [text.slice(0, text.lastIndexOf('\n')), text.slice(text.lastIndexOf('\n') + 1)];
    assert.ok(original.startsWith(`${kept}\n`), 'whole lines from the start');
    assert.equal(kept.split('\n').length, 39);
    assert.equal(note, `[… ${(original.length - kept.length).toLocaleString('en-US')} more characters not shown]`);
    assert.equal(cutLines, 0);
    assert.equal(cutChars, original.length - kept.length);
  });

  it('counts the line notes within the bound, however many lines are cut', () => {
    const { text, cutLines } = boundedText('z'.repeat(5_000).concat('\n').repeat(1_000));
    assert.ok(text.length <= maxChars + BOUND_NOTE_ALLOWANCE, `${text.length} characters`);
    assert.equal(cutLines, 19);
    assert.match(text, /\n\[… [\d,]+ more characters not shown\]$/);
  });

  it('never splits a surrogate pair, cutting a line or the whole', () => {
    const emoji = 'a' + '😀'.repeat(3_000);
    const line = boundedText(emoji);
    assert.ok(!splitsAPair(line.text), 'line cut');
    assert.ok(line.text.startsWith(`a${'😀'.repeat(999)} …`), line.text.slice(0, 10));
    const whole = boundedText(emoji, { maxLineChars: 10_000, maxChars: 1_000 });
    assert.ok(!splitsAPair(whole.text), 'whole cut');
    assert.ok(whole.text.startsWith(`a${'😀'.repeat(499)}\n[… `));
  });

  it('gives text within bounds back unchanged', () => {
    const text = `line 1\n${'w'.repeat(maxLineChars)}\n\n  indented\r\nlast \n`;
    assert.deepEqual(boundedText(text), { text, cutLines: 0, cutChars: 0 });
    assert.deepEqual(boundedText(''), { text: '', cutLines: 0, cutChars: 0 });
  });
});
