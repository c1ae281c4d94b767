import * as assert from 'node:assert/strict';
import { assistantTurn, EXPLAIN_CODE as CODE, EXPLAIN_PROMPT as PROMPT, explainQuestion, state } from './fixtures';
import { useView, View } from './harness';

describe('chat webview: Explain Selection questions', function () {
  this.timeout(60_000);
  let view: View;
  useView((opened) => (view = opened));

  it('shows "Explain" and a chip of the file and lines, with the code folded, not the prompt the model got', async () => {
    await view.send(state({ turns: [explainQuestion(), assistantTurn('a1', 'It retries the upload.')] }));
    const question = view.page.locator('.turn-user');
    assert.equal(await question.locator('.explain-command').textContent(), 'Explain');
    const chip = question.locator('.explain-chip');
    assert.equal(await chip.textContent(), 'retry.ts:2–4');
    assert.equal(await chip.getAttribute('title'), 'Open src/retry.ts:2–4');
    const shown = await question.innerText();
    assert.ok(!shown.includes('what it does, how'), `the prompt's template is not shown: ${shown}`);
    assert.ok(!shown.includes('```'), 'no literal fences');
    assert.equal(await question.locator('.context-chip').count(), 0, 'the chip says where the code is, once');

    // The code is folded in a code block, highlighted, with its buttons; opened on request.
    const code = question.locator('details.explained-code');
    assert.equal(await code.getAttribute('open'), null, 'folded');
    assert.equal(await question.locator('.code-block code').isVisible(), false);
    await code.locator('summary').click();
    assert.equal(await question.locator('.code-block code').textContent(), `${CODE}\n`);
    assert.ok((await question.locator('.code-block .hljs-keyword').count()) > 0, 'highlighted');
    await question.getByRole('button', { name: 'Copy TypeScript code', exact: true }).click();
    assert.deepEqual(await view.postedOfType('copyCode'), [{ type: 'copyCode', code: CODE, language: 'typescript' }]);

    await chip.click();
    assert.deepEqual(await view.postedOfType('openFile'), [{ type: 'openFile', file: 'src/retry.ts', first: 2, last: 4 }]);
  });

  it('a question kept before Explain had its own view shows its text and context chip as before', async () => {
    const { explained: _explained, ...older } = explainQuestion();
    await view.send(state({ turns: [older] }));
    const question = view.page.locator('.turn-user');
    assert.ok((await question.locator('.user-text').innerText()).startsWith(PROMPT));
    assert.equal(await question.locator('.context-chip').textContent(), 'retry.ts:2–4');
    assert.equal(await question.locator('.explain-chip').count(), 0);
  });

  it('a file the citation form cannot name (no extension) is named on the chip, not linked', async () => {
    const question = explainQuestion();
    await view.send(state({ turns: [{ ...question, explained: { ...question.explained!, file: 'Makefile' } }] }));
    assert.equal(await view.page.locator('span.explain-chip').textContent(), 'Makefile:2–4');
    assert.equal(await view.page.locator('a.explain-chip').count(), 0);
  });
});
