import * as assert from 'node:assert/strict';
import { cleanCompletion, type HoleContext } from '../../../../src/core/completion/cleanCompletion';
import { completesBlock, worthCompleting } from '../../../../src/core/completion/completionSite';

/** A hole at `|` in `code`, with the mode the cursor's place gives. */
function hole(code: string, indent = '  '): HoleContext {
  const [prefix, suffix] = code.split('|');
  const lineBefore = prefix.slice(prefix.lastIndexOf('\n') + 1);
  const lineAfter = suffix.split('\n')[0];
  return { prefix, suffix, multiline: completesBlock({ lineBefore, lineAfter }), indent };
}

const tagged = (text: string) => `Sure! Here is the code:\n<COMPLETION>${text}</COMPLETION>\nHope it helps.`;

describe('completions: where to ask for one, and how much', () => {
  it('never mid-word or right after a statement ends its line', () => {
    assert.equal(worthCompleting({ lineBefore: '  const val', lineAfter: 'ue = 1;' }), false);
    assert.equal(worthCompleting({ lineBefore: '  call();', lineAfter: '' }), false);
    assert.equal(worthCompleting({ lineBefore: '  if (x) {', lineAfter: '' }), true);
    assert.equal(worthCompleting({ lineBefore: '  call(', lineAfter: ')' }), true);
  });

  it('several lines where a block starts, the rest of the line elsewhere', () => {
    assert.equal(completesBlock({ lineBefore: 'function area(r) {', lineAfter: '' }), true);
    assert.equal(completesBlock({ lineBefore: '    ', lineAfter: '' }), true);
    assert.equal(completesBlock({ lineBefore: 'def area(r):', lineAfter: '', languageId: 'python' }), true);
    assert.equal(
      completesBlock({ lineBefore: '  constructor(private readonly store: ', lineAfter: '', languageId: 'typescript' }),
      false,
      'a type follows `:` there, on the line',
    );
    assert.equal(completesBlock({ lineBefore: 'const f = () =>', lineAfter: '' }), true);
    assert.equal(completesBlock({ lineBefore: '  const x = ', lineAfter: '' }), false);
    assert.equal(completesBlock({ lineBefore: '  call(a, ', lineAfter: ')' }), false);
  });
});

describe("completions: a chat model's reply cleaned into exactly the missing text", () => {
  it('takes the text inside the answer tags, without the prose around them; none means no suggestion', () => {
    assert.equal(cleanCompletion(tagged('42;'), hole('const answer = |')), '42;');
    assert.equal(cleanCompletion('The answer is 42.', hole('const answer = |')), '');
    assert.equal(cleanCompletion('```ts\n42;\n```', hole('const answer = |')), '42;', 'a reply that is one fenced block');
  });

  it('takes the answer from a reply without the tags: its first fenced block, else the code without the sentences around it', () => {
    const body = hole('function area(r) {\n  |\n}');
    assert.equal(cleanCompletion('```typescript\nreturn Math.PI * r * r;\n```\nThis completes the function.', body), 'return Math.PI * r * r;');
    assert.equal(cleanCompletion('Вот код для этого места:\n\n```ts\nreturn r * r;\n```\n\nОн возвращает квадрат.', body), 'return r * r;');
    assert.equal(cleanCompletion('Here is the code:\n```\nreturn r', body), 'return r', 'a block still arriving');
    assert.equal(cleanCompletion('computeTotal();', hole('const total = |')), 'computeTotal();');
    assert.equal(cleanCompletion('Sure! Here is the body:\nreturn r * r;\nIt squares the radius.', body), 'return r * r;');
    assert.equal(cleanCompletion('Sure!', hole('const total = |')), '');
    assert.equal(cleanCompletion('I cannot see enough of the file.\nPlease show me more.', body), '', 'only sentences: no suggestion');
    assert.equal(cleanCompletion("'The message was cut.'", hole('const text = |')), "'The message was cut.'", 'a sentence in quotes is code');
  });

  it('drops the fences and the prompt markers the model echoes', () => {
    assert.equal(cleanCompletion(tagged('```typescript\nreturn Math.PI * r * r;\n```'), hole('function area(r) {\n  |\n}')), 'return Math.PI * r * r;');
    assert.equal(cleanCompletion(tagged('// Path: src/area.ts\nreturn r * r;'), hole('function sq(r) {\n  |\n}')), 'return r * r;');
  });

  it('removes the start of the line the model wrote again', () => {
    assert.equal(cleanCompletion(tagged('const answer = 42;'), hole('  const answer = |')), '42;');
    assert.equal(cleanCompletion(tagged('answer = 42;'), hole('  const answer = |')), '42;');
  });

  it('does not repeat what follows the cursor: an auto-closed parenthesis, a closing brace on the next line', () => {
    assert.equal(cleanCompletion(tagged('a, b)'), hole('  return sum(|)')), 'a, b');
    assert.equal(cleanCompletion(tagged('\n  return a + b;\n}'), hole('function add(a, b) {|\n}')), '\n  return a + b;');
    assert.equal(cleanCompletion(tagged('items.length]'), hole('  const last = items[|]')), 'items.length');
  });

  it('keeps the closers the code needs: an inner `)` that ends a call begun before the cursor, a nested block’s `}`', () => {
    assert.equal(cleanCompletion(tagged("ing'))"), hole("  list.push(label('warn|)")), "ing')");
    assert.equal(
      cleanCompletion(tagged('\n  if (x) {\n    return 1;\n  }\n  return 0;\n}'), hole('function f(x) {|\n}')),
      '\n  if (x) {\n    return 1;\n  }\n  return 0;',
    );
  });

  it('reads brackets and quotes as code does: a bracket inside a string is text; an auto-closed quote is not written twice', () => {
    assert.equal(cleanCompletion(tagged("world)')"), hole("  say('Hello (|')")), 'world)');
    assert.equal(cleanCompletion(tagged("s/promises')"), hole("  await import('node:f|')")), 's/promises');
    assert.equal(cleanCompletion(tagged("request', 'done']);"), hole("  z.enum(['stop', 'length', 'function_|]);")), "request', 'done'");
    assert.equal(completesBlock({ lineBefore: "  const url = 'https:", lineAfter: '' }), false, 'a `:` in a string starts no block');
  });

  it('after `=>` the body may stay on the line', () => {
    assert.equal(cleanCompletion(tagged(' x * 2;'), hole('const double = (x) =>|')), ' x * 2;');
  });

  it('keeps a block to its block: up to a blank line, or code indented less than the cursor', () => {
    const reply = tagged('if (r < 0) {\n    throw new RangeError("r");\n  }\n  return r * r;\n}\n\nexport const x = 1;');
    assert.equal(cleanCompletion(reply, hole('function sq(r) {\n  |')), 'if (r < 0) {\n    throw new RangeError("r");\n  }\n  return r * r;');
  });

  it('writes the file’s indentation: tabs in a file indented with tabs', () => {
    assert.equal(cleanCompletion(tagged('\n    return 1;\n}'), hole('function one() {|', '\t')), '\n\treturn 1;\n}');
    assert.equal(cleanCompletion(tagged('\n\treturn 1;'), hole('function one() {|\n}', '    ')), '\n    return 1;');
  });

  it('one line mid-line, and the reply’s leading spaces dropped after the spaces typed', () => {
    assert.equal(cleanCompletion(tagged(' total + tax;\n  log(total);'), hole('  const sum = |')), 'total + tax;');
  });

  it('stops at a line repeated a third time, and drops a reply that only repeats the code around it', () => {
    assert.equal(cleanCompletion(tagged('\n  a();\n  a();\n  a();\n  a();'), hole('function f() {|')), '\n  a();\n  a();');
    assert.equal(cleanCompletion(tagged('x = compute();'), hole('x = compute();\n|')), '');
    assert.equal(cleanCompletion(tagged('return total;'), hole('function f() {\n  |\n  return total;\n}')), '');
  });

  it('drops an empty or one-character reply', () => {
    assert.equal(cleanCompletion(tagged('  \n '), hole('const a = |')), '');
    assert.equal(cleanCompletion(tagged(';'), hole('const a = 1|')), '');
  });
});
