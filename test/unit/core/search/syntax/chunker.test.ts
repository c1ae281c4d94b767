import * as assert from 'node:assert/strict';
import { chunkText, type Chunk } from '../../../../../src/core/search/syntax/chunker';
import { randomInt } from '../../../../emulator/random';
import { seededRandom } from '../../../support/random';

/**
 * Checks every promise of the chunker on one text: ranges are right, multi-line chunks are their
 * lines verbatim and within maxChars, the pieces of a long line rebuild it, and every line with
 * content is covered.
 */
function checkChunks(text: string, chunks: Chunk[], maxChars: number, context: string): void {
  const lines = text.split(/\r\n|\r|\n/);
  const covered = new Uint8Array(lines.length);
  const pieces = new Map<number, string[]>();
  let previousStart = -1;
  for (const chunk of chunks) {
    const where = `${context}: chunk ${chunk.startLine}-${chunk.endLine}`;
    assert.ok(
      Number.isInteger(chunk.startLine) && chunk.startLine >= 0 && chunk.endLine >= chunk.startLine && chunk.endLine < lines.length,
      `${where}: range out of bounds`,
    );
    assert.ok(chunk.startLine >= previousStart, `${where}: chunks are in order`);
    previousStart = chunk.startLine;
    assert.match(chunk.text, /\S/, `${where}: a whitespace-only chunk`);
    for (let i = chunk.startLine; i <= chunk.endLine; i++) covered[i] = 1;
    const line = lines[chunk.startLine];
    if (chunk.startLine === chunk.endLine && line.length > maxChars) {
      assert.ok(chunk.text.length <= maxChars, `${where}: a piece of a long line is ${chunk.text.length} > ${maxChars}`);
      pieces.set(chunk.startLine, [...(pieces.get(chunk.startLine) ?? []), chunk.text]);
      continue;
    }
    assert.equal(chunk.text, lines.slice(chunk.startLine, chunk.endLine + 1).join('\n'), `${where}: the text is not its lines`);
    assert.ok(chunk.text.length <= maxChars, `${where}: ${chunk.text.length} > ${maxChars} characters`);
  }
  for (const [lineNumber, parts] of pieces) {
    // Whitespace-only pieces may be left out; the rest must appear in order and whole.
    const line = lines[lineNumber];
    let at = 0;
    for (const part of parts) {
      const found = line.indexOf(part, at);
      assert.ok(found >= at && /^\s*$/.test(line.slice(at, found)), `${context}: pieces of line ${lineNumber} skip content`);
      at = found + part.length;
    }
    assert.match(line.slice(at), /^\s*$/, `${context}: the end of line ${lineNumber} was dropped`);
  }
  lines.forEach((line, i) => {
    if (/\S/.test(line)) assert.equal(covered[i], 1, `${context}: line ${i} (${JSON.stringify(line.slice(0, 40))}) is in no chunk`);
  });
}

function randomText(random: () => number): string {
  const words = ['function', 'return', 'const', 'x', '=', 'if', 'upload', 'retry', '{', '}', 'тема', '😀', 'class', 'export', '#', 'def'];
  const breaks = ['\n', '\r\n', '\r'];
  const lines: string[] = [];
  const count = randomInt(random, 0, 400);
  for (let i = 0; i < count; i++) {
    const roll = random();
    if (roll < 0.15) lines.push('');
    else if (roll < 0.2) lines.push(' '.repeat(randomInt(random, 1, 8)));
    else if (roll < 0.22)
      lines.push(Array.from({ length: randomInt(random, 500, 6000) }, () => words[randomInt(random, 0, words.length - 1)]).join(random() < 0.5 ? ' ' : ''));
    else if (roll < 0.23) lines.push(...Array.from({ length: randomInt(random, 20, 300) }, () => ''));
    else
      lines.push(
        ' '.repeat(randomInt(random, 0, 6)) + Array.from({ length: randomInt(random, 1, 15) }, () => words[randomInt(random, 0, words.length - 1)]).join(' '),
      );
  }
  let text = '';
  lines.forEach((line, i) => (text += (i > 0 ? breaks[randomInt(random, 0, 2)] : '') + line));
  return text;
}

describe('chunker', () => {
  it('covers every line with content and never drops text, on random texts (long lines, CRLF, blank runs)', () => {
    for (let seed = 1; seed <= 150; seed++) {
      const random = seededRandom(seed);
      const text = randomText(random);
      const maxChars = [40, 200, 1500][seed % 3];
      const chunks = chunkText(text, { maxChars, overlapLines: randomInt(random, 0, 3) });
      checkChunks(text, chunks, maxChars, `seed ${seed}, maxChars ${maxChars}`);
      if (/\S/.test(text)) assert.ok(chunks.length > 0, `seed ${seed}: no chunks for a text with content`);
    }
  });

  it('gives no chunks for empty or whitespace-only files', () => {
    assert.deepEqual(chunkText(''), []);
    assert.deepEqual(chunkText('\n\n  \r\n\t\n'), []);
  });

  it('keeps a small file in one chunk with its line range; CRLF becomes \\n', () => {
    const chunks = chunkText('const a = 1;\r\nconst b = 2;\r\n');
    assert.deepEqual(chunks, [{ text: 'const a = 1;\nconst b = 2;\n', startLine: 0, endLine: 2 }]);
  });

  it('covers blank lines too, when the window is not all blank', () => {
    const text = Array.from({ length: 300 }, (_, i) => (i % 4 === 0 ? '' : `line ${i} of text`)).join('\n');
    const chunks = chunkText(text, { maxChars: 200 });
    const covered = new Set<number>();
    for (const c of chunks) for (let i = c.startLine; i <= c.endLine; i++) covered.add(i);
    assert.equal(covered.size, 300);
  });

  it('splits a line longer than the window into pieces that record its line number', () => {
    const long = 'word '.repeat(1000).trim();
    const chunks = chunkText(`first\n${long}\nlast`, { maxChars: 1500 });
    const pieces = chunks.filter((c) => c.startLine === 1);
    assert.ok(pieces.length >= 4);
    assert.ok(pieces.every((c) => c.endLine === 1 && c.text.length <= 1500));
    assert.equal(pieces.map((c) => c.text).join(''), long);
    assert.ok(
      pieces.slice(0, -1).every((c) => c.text.endsWith(' ')),
      'pieces end at a word boundary',
    );
    assert.deepEqual([chunks[0].startLine, chunks.at(-1)!.endLine], [0, 2]);
  });

  it('does not split a surrogate pair', () => {
    const chunks = chunkText('😀'.repeat(100), { maxChars: 7 });
    assert.equal(chunks.map((c) => c.text).join(''), '😀'.repeat(100));
    assert.ok(chunks.every((c) => c.text.length <= 7 && !/[\ud800-\udbff]$/.test(c.text) && !/^[\udc00-\udfff]/.test(c.text)));
  });

  it('cuts before a declaration or at a blank line rather than mid-function', () => {
    const fn = (name: string) =>
      [
        `export function ${name}(input: string): string {`,
        ...Array.from({ length: 12 }, (_, i) => `  const step${i} = input.trim() + ${i};`),
        '  return input;',
        '}',
      ].join('\n');
    const text = ['import { x } from "y";', '', fn('alpha'), fn('beta'), fn('gamma'), fn('delta')].join('\n');
    const chunks = chunkText(text, { maxChars: 1000 });
    assert.ok(chunks.length >= 2);
    for (const chunk of chunks.slice(1)) assert.match(chunk.text, /^export function \w+/, `a chunk starts mid-function: ${chunk.text.slice(0, 50)}`);
  });

  it('prefers a markdown heading as a boundary', () => {
    const section = (n: number) =>
      [`# Section ${n}`, '', ...Array.from({ length: 8 }, (_, i) => `Paragraph ${i} of section ${n} says something useful about it.`)].join('\n');
    const chunks = chunkText([1, 2, 3, 4, 5].map(section).join('\n'), { maxChars: 1200 });
    for (const chunk of chunks) assert.match(chunk.text, /^# Section \d/);
  });

  it('overlaps a few lines after a cut that found no natural boundary', () => {
    const text = Array.from({ length: 100 }, (_, i) => `  x${i} += y${i} * z;`).join('\n');
    const chunks = chunkText(text, { maxChars: 300, overlapLines: 2 });
    for (let i = 1; i < chunks.length; i++) assert.equal(chunks[i].startLine, chunks[i - 1].endLine - 1);
  });

  it('is fast on a large file', () => {
    const text =
      Array.from({ length: 100_000 }, (_, i) => (i % 50 === 0 ? `function f${i}() {` : `  call(${i}, "some argument text");`)).join('\n') +
      '\n' +
      'y'.repeat(1_000_000);
    const started = performance.now();
    const chunks = chunkText(text);
    const elapsed = performance.now() - started;
    checkChunks(text, chunks, 1500, 'large file');
    assert.ok(elapsed < 1500, `took ${Math.round(elapsed)} ms`);
  });
});
