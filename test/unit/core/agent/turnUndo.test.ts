import * as assert from 'node:assert/strict';
import { changesPerFile, planTurnUndo, type FileChange } from '../../../../src/core';

/** What Undo This Turn does with each file an @gigachat turn changed, judged on the file as it is now. */
describe('undoing an agent turn', () => {
  const edited: FileChange = { label: 'src/retry.ts', before: 'attempts = 3\n', after: 'attempts = 5\n' };
  const created: FileChange = { label: 'src/backoff.ts', before: undefined, after: 'factor = 2\n' };

  it('gives an edited file its text back and removes a file the turn created', () => {
    const now = new Map([
      ['src/retry.ts', 'attempts = 5\n'],
      ['src/backoff.ts', 'factor = 2\n'],
    ]);
    assert.deepEqual(
      planTurnUndo([edited, created], (label) => now.get(label)),
      [
        { kind: 'restore', label: 'src/retry.ts', current: 'attempts = 5\n', text: 'attempts = 3\n' },
        { kind: 'remove', label: 'src/backoff.ts', current: 'factor = 2\n' },
      ],
    );
  });

  it('takes two changes of one file as one: back to the text before the first', () => {
    const second: FileChange = { label: 'src/retry.ts', before: 'attempts = 5\n', after: 'attempts = 7\n' };
    assert.deepEqual(changesPerFile([edited, second]), [{ label: 'src/retry.ts', before: 'attempts = 3\n', after: 'attempts = 7\n' }]);
    assert.deepEqual(
      planTurnUndo([edited, second], () => 'attempts = 7\n'),
      [{ kind: 'restore', label: 'src/retry.ts', current: 'attempts = 7\n', text: 'attempts = 3\n' }],
    );
  });

  it('leaves a file changed since the turn as it is, and names it', () => {
    assert.deepEqual(
      planTurnUndo([edited], () => 'attempts = 5\n// the user typed on\n'),
      [{ kind: 'changedSince', label: 'src/retry.ts' }],
    );
    // A created file deleted since, or rewritten, is not the turn's any more either.
    assert.deepEqual(
      planTurnUndo([created], () => 'factor = 3\n'),
      [{ kind: 'changedSince', label: 'src/backoff.ts' }],
    );
  });

  it('needs nothing for a file already back as it was (undone twice, or deleted again)', () => {
    assert.deepEqual(
      planTurnUndo([edited], () => 'attempts = 3\n'),
      [{ kind: 'alreadyUndone', label: 'src/retry.ts' }],
    );
    assert.deepEqual(
      planTurnUndo([created], () => undefined),
      [{ kind: 'alreadyUndone', label: 'src/backoff.ts' }],
    );
  });
});
