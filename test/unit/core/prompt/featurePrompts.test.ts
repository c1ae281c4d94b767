import * as assert from 'node:assert/strict';
import type { ConversationMessage } from '../../../../src/core/conversation/turns';
import { fillMessages, HOLE } from '../../../../src/core/completion/fillPrompt';
import { commitMessagePrompt, RULES_CUT, type CommitRequest } from '../../../../src/core/scm/commitPrompt';
import { commitStyle } from '../../../../src/core/scm/commitStyle';
import { reviewPrompt } from '../../../../src/core/scm/reviewPrompt';
import type { ChangedFile } from '../../../../src/core/scm/sendableChange';
import { estimateTokens } from '../../../../src/core/service/tokenCounter';

const textOf = (message: ConversationMessage) => message.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
const ruleLines = (count: number) => Array.from({ length: count }, (_, i) => `- Rule ${i}: commit subjects name the module they touch, in full.`).join('\n');
const subjects = Array.from({ length: 10 }, (_, i) => `Fix the parser's handling of case ${i} in the lexer`);

/** One changed file of `hunks` hunks of 20 added lines each. */
function bigFile(path: string, hunks: number): ChangedFile {
  return {
    path,
    status: 'modified',
    binary: false,
    added: hunks * 20,
    removed: 0,
    hunks: Array.from({ length: hunks }, (_, h) => ({
      header: `@@ -${h * 100 + 1},0 +${h * 100 + 1},20 @@`,
      oldStart: h * 100 + 1,
      oldLines: 0,
      newStart: h * 100 + 1,
      newLines: 20,
      lines: Array.from({ length: 20 }, (_, l) => `+const value${h}_${l} = compute(${h}, ${l}); // a line of the change`),
    })),
  };
}

describe('the features on the prompt layer', () => {
  const request: CommitRequest = {
    digest: '1 file changed, 3 lines added, 0 removed:\n- modified src/a.ts +3 -0',
    style: commitStyle(subjects),
    language: 'en',
    fallbackLanguage: 'en',
    instructions: 'Be terse.',
    rules: ruleLines(200),
    scope: 'staged',
  };

  it("commit message: whole with no budget; in a tight one the rules are cut at a line's end with a marker, the instructions and the change kept", () => {
    const [system, user] = commitMessagePrompt(request);
    assert.ok(textOf(system).includes('Rule 199'), 'no budget: every rule');
    assert.ok(textOf(user).includes(subjects[9]), 'and every example');
    const tight = commitMessagePrompt({ ...request, budgetTokens: 1_200 });
    const tightSystem = textOf(tight[0]);
    assert.ok(tightSystem.includes(RULES_CUT), 'the rules say they go on');
    assert.ok(!tightSystem.includes('Rule 199'));
    assert.ok(tightSystem.endsWith("The user's own instructions:\nBe terse."), "the user's own instructions keep the last word");
    assert.ok(textOf(tight[1]).startsWith('The staged change:\n\n1 file changed'));
    assert.ok(estimateTokens(tightSystem) + estimateTokens(textOf(tight[1])) <= 1_200);
  });

  it('commit message: the example subjects give way last of all, the newest kept', () => {
    const whole = commitMessagePrompt({ ...request, rules: undefined });
    const tokens = whole.reduce((sum, message) => sum + estimateTokens(textOf(message)), 0);
    const [system, user] = commitMessagePrompt({ ...request, rules: undefined, budgetTokens: tokens - 30 });
    assert.equal(textOf(system), textOf(whole[0]), 'the instructions whole');
    const text = textOf(user);
    assert.ok(text.includes(subjects[0]), 'the newest subject');
    assert.ok(!text.includes(subjects[9]), 'not the oldest');
  });

  it('review: one budget for the instructions, the rules and the change; what was left out said and counted', () => {
    const files = [bigFile('src/big.ts', 30)];
    const roomy = reviewPrompt(files, { budgetTokens: 50_000, language: 'English', rules: ruleLines(5) });
    assert.equal(roomy.leftOutHunks, 0);
    const tight = reviewPrompt(files, { budgetTokens: 4_000, language: 'English', rules: ruleLines(5) });
    assert.ok(tight.leftOutHunks > 0 && tight.summarisedFiles === 1);
    assert.match(tight.user, /Left out for length: \d+ of 30 hunks/);
    assert.match(tight.system, /Rule 4/, 'the rules, before the change');
    assert.ok(estimateTokens(tight.system) + estimateTokens(tight.user) <= 4_000);
  });

  it('completions: the excerpts of open files go whole beside the window, and give way, the last first, when they would crowd it', () => {
    // A file longer than the window's budget: the window takes all of it.
    const text = `${'// a line of the file before\n'.repeat(400)}function area(r) {\n  \n}\n${'// a line of the file after\n'.repeat(400)}`;
    const offset = text.indexOf('{\n  ') + 4;
    const ask = (neighbours: { path: string; text: string }[]) =>
      fillMessages({ path: 'src/area.ts', languageId: 'typescript', text, offset, multiline: true, budgetChars: 4_000, neighbours })[1].content;
    const small = ask([{ path: 'src/circle.ts', text: 'export const PI = 3.14;' }]);
    assert.ok(small.includes('Excerpt of src/circle.ts:\nexport const PI = 3.14;\n\n// a line of the file before'));
    const crowded = ask([
      { path: 'src/one.ts', text: 'x'.repeat(1_500) },
      { path: 'src/two.ts', text: 'y'.repeat(1_500) },
      { path: 'src/three.ts', text: 'z'.repeat(1_500) },
    ]);
    assert.ok(crowded.includes('Excerpt of src/one.ts') && crowded.includes('Excerpt of src/two.ts'), 'what the host sends at most goes whole');
    assert.ok(!crowded.includes('Excerpt of src/three.ts'), 'beyond it, the last gives way');
    assert.ok(crowded.includes(`function area(r) {\n  ${HOLE}\n}\n// a line of the file after`), 'the window always');
  });
});
