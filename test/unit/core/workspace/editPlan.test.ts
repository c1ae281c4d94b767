import * as assert from 'node:assert/strict';
import { changeSummary, planEdit } from '../../../../src/core/workspace/editPlan';

describe("planEdit: what an agent's edit would do", () => {
  const file = 'const a = 1;\nconst b = 2;\nconst c = 3;\n';

  it('replaces one exact, unique piece, from the line it starts at', () => {
    const plan = planEdit({ path: 'x.ts', oldText: 'const b = 2;', newText: 'const b = 20;' }, file, 'x.ts');
    assert.deepEqual(plan, { kind: 'replace', offset: 13, oldText: 'const b = 2;', newText: 'const b = 20;', firstLine: 2 });
  });

  it('refuses text that is missing or occurs twice, saying what to do', () => {
    const missing = planEdit({ path: 'x.ts', oldText: 'const d', newText: '' }, file, 'x.ts');
    assert.equal(missing.kind, 'refused');
    assert.match((missing as { reason: string }).reason, /not found in x\.ts: read the file again/);
    const twice = planEdit({ path: 'x.ts', oldText: 'const', newText: 'let' }, file, 'x.ts');
    assert.match((twice as { reason: string }).reason, /more than once/);
  });

  it('creates a new file only where there is none (or it is empty)', () => {
    assert.deepEqual(planEdit({ path: 'new.ts', newText: 'x' }, undefined, 'new.ts'), { kind: 'create', newText: 'x' });
    assert.deepEqual(planEdit({ path: 'new.ts', oldText: '', newText: 'x' }, '', 'new.ts'), { kind: 'create', newText: 'x' });
    assert.equal(planEdit({ path: 'x.ts', newText: 'x' }, file, 'x.ts').kind, 'refused');
    assert.equal(planEdit({ path: 'gone.ts', oldText: 'a', newText: 'b' }, undefined, 'gone.ts').kind, 'refused');
    assert.equal(planEdit({ path: 'x.ts', oldText: 'a', newText: undefined as unknown as string }, file, 'x.ts').kind, 'refused');
  });

  it('counts the lines a change removes and adds, so the question can say how big it is', () => {
    const plan = planEdit({ path: 'x.ts', oldText: 'const b = 2;\nconst c = 3;\n', newText: 'const b = 20;\n' }, file, 'x.ts');
    assert.deepEqual(changeSummary(plan as never), { removedLines: 2, addedLines: 1 });
    assert.deepEqual(changeSummary({ kind: 'create', newText: 'a\r\nb\r\nc' }), { removedLines: 0, addedLines: 3 });
    assert.deepEqual(changeSummary({ kind: 'replace', offset: 0, oldText: 'a', newText: '', firstLine: 1 }), { removedLines: 1, addedLines: 0 });
  });
});
