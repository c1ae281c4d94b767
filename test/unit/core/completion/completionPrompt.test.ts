import * as assert from 'node:assert/strict';
import { CompletionCache } from '../../../../src/core/completion/completionCache';
import { fileWindow, fillMessages, HOLE } from '../../../../src/core/completion/fillPrompt';

const lines = (count: number) => Array.from({ length: count }, (_, i) => `const line${i} = ${i};`).join('\n');

describe('completions: the prompt', () => {
  it('shows the file with the hole at the cursor, its path and language, and the mode, after fixed instructions', () => {
    const text = 'function area(r) {\n  \n}\n';
    const offset = text.indexOf('\n  ') + 3;
    const [system, user] = fillMessages({ path: 'src/area.ts', languageId: 'typescript', text, offset, multiline: true, budgetChars: 4000 });
    assert.equal(system.role, 'system');
    assert.match(system.content, /<COMPLETION>/);
    assert.match(user.content, /^File: src\/area\.ts \(typescript\)/);
    assert.ok(user.content.includes(`function area(r) {\n  ${HOLE}\n}\n`));
    assert.match(user.content, /rest of the block/);
    const other = fillMessages({ path: 'b.py', languageId: 'python', text: 'x = ', offset: 4, multiline: false, budgetChars: 4000 });
    assert.equal(other[0].content, system.content, 'the instructions never change: the service caches them');
    assert.match(other[1].content, /a single line/);
  });

  it('keeps within the budget, the window before the cursor moving in steps of lines so that successive requests share it', () => {
    const text = lines(400);
    const at = (line: number) => text.split('\n').slice(0, line).join('\n').length + 1 + 'const line'.length;
    const first = fileWindow(text, at(300), 2000);
    assert.ok(first.prefix.length + first.suffix.length <= 2000 + 40, 'within the budget (the cursor line whole)');
    assert.ok(first.prefix.length <= 1500 + 40);
    assert.ok(first.prefix.startsWith('const line'), 'from the start of a line');
    // A keystroke later, and a line later: the same start.
    assert.equal(fileWindow(text, at(300) + 1, 2000).prefix.slice(0, 40), first.prefix.slice(0, 40));
    assert.equal(fileWindow(text, at(301), 2000).prefix.slice(0, 40), first.prefix.slice(0, 40));
    assert.ok(!first.suffix.includes('\n') || first.suffix.endsWith(';'), 'after the cursor to a line end');
  });
});

describe('completions: what was had is not asked again', () => {
  it('answers the same place from the cache, and the rest of a suggestion being typed', () => {
    const cache = new CompletionCache();
    cache.set('const total = ', ';\n', 'price * quantity');
    assert.equal(cache.get('const total = ', ';\n'), 'price * quantity');
    assert.equal(cache.get('const total = pri', ';\n'), 'ce * quantity');
    assert.equal(cache.get('const total = price * quantit', ';\n'), 'y');
    assert.equal(cache.get('const total = prize', ';\n'), undefined, 'typed something else');
    assert.equal(cache.get('const total = pri', ')\n'), undefined, 'another place');
  });

  it('follows the typing in a long file too, and forgets the oldest beyond its size', () => {
    const long = `${lines(500)}\nconst total = `;
    const cache = new CompletionCache(2);
    cache.set(long, '', 'price * quantity');
    assert.equal(cache.get(`${long}price `, ''), '* quantity');
    cache.set('a = ', '', 'one');
    cache.set('b = ', '', 'two');
    assert.equal(cache.get(long, ''), undefined);
    assert.equal(cache.get('b = ', ''), 'two');
  });
});
