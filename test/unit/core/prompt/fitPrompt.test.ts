import * as assert from 'node:assert/strict';
import { fitPrompt, JOIN_TOKENS, promptMessages, type PromptPart } from '../../../../src/core/prompt/fitPrompt';
import { fitItems, listPart, trimAtLineEnds } from '../../../../src/core/prompt/shrinking';
import { RULES_BUDGET_TOKENS, systemText } from '../../../../src/core/prompt/systemText';
import { estimateTokens } from '../../../../src/core/service/tokenCounter';

/** A text of about `tokens` tokens (the estimate: three characters a token). */
const words = (tokens: number, word = 'ab') => Array.from({ length: tokens }, () => word).join(' ');
/** A text of `count` lines, each about `tokens` tokens. */
const lines = (count: number, tokens = 10) => Array.from({ length: count }, (_, i) => `${i}`.padEnd(tokens * 3 - 1, '.')).join('\n');

/** What the fitted parts take by the estimate, joins included: never more than the budget for optional parts. */
const total = (fitted: ReturnType<typeof fitPrompt>) =>
  fitted.parts.reduce((sum, part) => sum + estimateTokens(part.text), 0) + JOIN_TOKENS * Math.max(0, fitted.parts.length - 1);

describe('the prompt layer: parts fitted to one budget', () => {
  it('sends every part whole, in the order given, when the budget holds them', () => {
    const fitted = fitPrompt(
      [
        { key: 'instructions', role: 'system', required: true, text: 'Review the change.' },
        { key: 'rules', role: 'system', priority: 2, text: 'Use tabs.' },
        { key: 'change', text: 'diff' },
      ],
      1_000,
    );
    assert.deepEqual(
      fitted.parts.map((part) => part.key),
      ['instructions', 'rules', 'change'],
    );
    assert.deepEqual(fitted.leftOut, []);
    assert.equal(fitted.overBudget, 0);
    assert.deepEqual(promptMessages(fitted), [
      { role: 'system', text: 'Review the change.\n\nUse tabs.' },
      { role: 'user', text: 'diff' },
    ]);
    assert.equal(fitted.tokens, total(fitted));
  });

  it('gives the room to the higher priority first and leaves out what does not fit, saying which, the order kept', () => {
    const parts: PromptPart[] = [
      { key: 'examples', priority: 1, text: words(300) },
      { key: 'instructions', required: true, text: words(100) },
      { key: 'rules', priority: 3, text: words(300) },
      { key: 'history', priority: 2, text: words(300) },
    ];
    const fitted = fitPrompt(parts, 750);
    assert.deepEqual(
      fitted.parts.map((part) => part.key),
      ['instructions', 'rules', 'history'],
      'the lowest priority gave way; the others keep the order given',
    );
    assert.deepEqual(fitted.leftOut, [{ key: 'examples', whole: true }]);
    assert.ok(total(fitted) <= 750);
  });

  it('prefers the earlier part among equal priorities, and a smaller later part may take the room a larger one could not', () => {
    const fitted = fitPrompt(
      [
        { key: 'a', text: words(60) },
        { key: 'b', text: words(200) },
        { key: 'c', text: words(30) },
      ],
      100,
    );
    assert.deepEqual(
      fitted.parts.map((part) => part.key),
      ['a', 'c'],
    );
    assert.deepEqual(
      fitted.leftOut.map((part) => part.key),
      ['b'],
    );
  });

  it('shrinks a part that can shrink, at line ends, with a marker and a note of what was left out', () => {
    const rules = lines(50);
    const fitted = fitPrompt(
      [
        { key: 'instructions', required: true, text: words(50) },
        { key: 'rules', text: rules, shrink: trimAtLineEnds('[…cut]') },
      ],
      200,
    );
    const text = fitted.textOf('rules');
    assert.ok(text.endsWith('\n[…cut]'));
    assert.ok(rules.startsWith(text.slice(0, -'\n[…cut]'.length)), 'the first lines, each whole');
    const [note] = fitted.leftOut;
    assert.equal(note.key, 'rules');
    assert.equal(note.whole, false);
    assert.match(note.leftOut ?? '', /^\d+ of 50 lines$/);
    assert.ok(total(fitted) <= 200);
  });

  it('drops whole items of a list from its end', () => {
    const items = ['- newest', '- older', '- oldest'];
    const fitted = fitPrompt([{ key: 'examples', ...listPart(items, '\n') }], estimateTokens('- newest\n- older') + 2);
    assert.equal(fitted.textOf('examples'), '- newest\n- older');
    assert.equal(fitted.leftOut[0].leftOut, '1 of 3 items');
  });

  it('writes a part made to measure within the room it gets, and caps a part at its own maximum', () => {
    const rooms: number[] = [];
    const fitted = fitPrompt(
      [
        { key: 'instructions', required: true, text: words(100) },
        {
          key: 'change',
          required: true,
          maxTokens: 300,
          text: (room) => {
            rooms.push(room);
            return { text: words(room - 5), leftOut: '3 of 9 hunks' };
          },
        },
        { key: 'examples', text: words(50) },
      ],
      1_000,
    );
    assert.deepEqual(rooms, [300], 'the cap, not all that was left');
    assert.deepEqual(fitted.leftOut, [{ key: 'change', whole: false, leftOut: '3 of 9 hunks' }]);
    assert.ok(fitted.textOf('examples'), 'the rest went to the next part');
  });

  it('never goes over the budget for what may give way, whatever the budget', () => {
    const parts: PromptPart[] = [
      { key: 'instructions', required: true, text: words(40) },
      { key: 'rules', priority: 2, text: lines(40), shrink: trimAtLineEnds('[cut]') },
      { key: 'passages', priority: 1, ...listPart([words(120), words(80), words(20)]) },
      // A shrink that cheats, giving more than its room: the layer does not take it.
      { key: 'greedy', text: words(5_000), shrink: (text) => ({ text }) },
    ];
    for (let budget = 40; budget <= 1_200; budget += 7) {
      const fitted = fitPrompt(parts, budget);
      assert.ok(total(fitted) <= budget, `${total(fitted)} within ${budget}`);
      assert.equal(fitted.overBudget, 0);
      assert.equal(fitted.textOf('greedy'), '');
      assert.equal(fitted.parts[0].key, 'instructions');
    }
  });

  it('never drops a required part: over the budget it stays whole and says by how much', () => {
    const question = words(300);
    const fitted = fitPrompt(
      [
        { key: 'rules', priority: 9, text: words(10) },
        { key: 'question', required: true, text: question },
        { key: 'context', required: true, text: () => ({ text: words(50) }) },
      ],
      100,
    );
    assert.equal(fitted.textOf('question'), question);
    assert.ok(fitted.textOf('context'), 'made to measure and required: it goes even without room');
    assert.equal(fitted.textOf('rules'), '', 'nothing optional once the budget is spent');
    assert.equal(fitted.overBudget, fitted.tokens - 100);
    assert.ok(fitted.overBudget > 0);
  });

  it('places fixed required parts before a required one that shrinks, so the latter takes only what they leave', () => {
    const fitted = fitPrompt(
      [
        { key: 'window', required: true, text: lines(100), shrink: trimAtLineEnds('') },
        { key: 'mode', required: true, text: words(20) },
      ],
      300,
    );
    assert.ok(fitted.textOf('mode'));
    assert.equal(fitted.overBudget, 0);
    assert.deepEqual(
      fitted.parts.map((part) => part.key),
      ['window', 'mode'],
    );
  });

  it('refuses bad input: a budget that is no number, two parts of one name; reads a negative budget as none and skips empty parts', () => {
    assert.throws(() => fitPrompt([{ key: 'a', text: 'x' }], Number.NaN), RangeError);
    assert.throws(
      () =>
        fitPrompt(
          [
            { key: 'a', text: 'x' },
            { key: 'a', text: 'y' },
          ],
          10,
        ),
      /Two prompt parts are named "a"/,
    );
    const none = fitPrompt(
      [
        { key: 'q', required: true, text: 'hello' },
        { key: 'extra', text: 'more' },
        { key: 'empty', required: true, text: '' },
      ],
      -5,
    );
    assert.deepEqual(
      none.parts.map((part) => part.key),
      ['q'],
    );
    assert.deepEqual(none.leftOut, [{ key: 'extra', whole: true }]);
    assert.equal(none.overBudget, estimateTokens('hello'));
    assert.deepEqual(fitPrompt([], 100).parts, []);
    const all = fitPrompt([{ key: 'big', text: words(100_000) }], Infinity);
    assert.equal(all.leftOut.length, 0, 'Infinity: everything whole');
  });
});

describe('the prompt layer: items and system text', () => {
  it('keeps items whole in their order, passes over one too large for the smaller after it, and cuts one when allowed', () => {
    const items = [words(50), words(500), words(30)];
    const measure = estimateTokens;
    assert.equal(fitItems(items, 100, { textOf: (item) => item, measure }).leftOut, 1);
    const cut = fitItems(items, 200, { textOf: (item) => item, measure, cut: (item, room) => item.slice(0, room * 3) });
    assert.equal(cut.kept.length, 2, 'the first whole, the second cut to the room, which is then spent');
    assert.ok(cut.kept[1].length < items[1].length);
    assert.deepEqual(fitItems([], 100, { textOf: String, measure }), { kept: [], text: '', leftOut: 0 });
  });

  it('puts the rules between the instructions and the user’s prompt, and cuts them at their cap', () => {
    assert.equal(systemText({ instructions: 'Be an agent.', rules: 'Use tabs.', userPrompt: ' Be brief. ' }, '\n'), 'Be an agent.\nUse tabs.\nBe brief.');
    assert.equal(systemText({ userPrompt: 'Be brief.' }, '\n\n'), 'Be brief.');
    assert.equal(systemText({}, '\n\n'), '');
    const long = systemText({ rules: lines(1_000), userPrompt: 'Be brief.' }, '\n\n');
    assert.ok(estimateTokens(long) <= RULES_BUDGET_TOKENS + estimateTokens('Be brief.') + JOIN_TOKENS);
    assert.match(long, /left out for lack of room\]\n\nBe brief\.$/);
  });
});
