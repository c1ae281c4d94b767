import * as assert from 'node:assert/strict';
import { fileLines } from '../../../../src/core/agent/fileLines';
import { MASK } from '../../../../src/core/workspace/secretShapes';

const GITHUB = `ghp_${'a1B2c3D4e5'.repeat(4)}`;

/** What @gigachat's read tool gives the model of a file. */
describe("the agent's file reads", () => {
  it('mask values that look like tokens or passwords, and say so in the result', () => {
    const text = [
      '[default]',
      'aws_access_key_id = AKIAIOSFODNN7EXAMPLE',
      'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      `token: ${GITHUB}`,
      'region = eu-west-1',
    ].join('\n');
    const result = fileLines('.aws/credentials.sample', text);
    for (const secret of ['AKIAIOSFODNN7EXAMPLE', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', GITHUB]) assert.ok(!result.includes(secret), secret);
    assert.match(result, /^\.aws\/credentials\.sample, lines 1–5 of 5\. \[masked: 3 values look like a token or password/);
    assert.ok(result.includes(`2: aws_access_key_id = ${MASK}`));
    assert.ok(result.includes('5: region = eu-west-1'));
  });

  it('count only what the lines read hold', () => {
    const text = ['const a = 1;', `const token = '${GITHUB}';`, 'const b = 2;'].join('\n');
    assert.doesNotMatch(fileLines('a.ts', text, 3, 3), /masked/);
    assert.match(
      fileLines('a.ts', text, 2, 2),
      /\[masked: 1 value looks like a token or password, shown as «masked»; not sent\.\]\n2: const token = '«masked»';$/,
    );
  });

  it('read a file without tokens as before: numbered, in bounds, saying what was left', () => {
    const text = Array.from({ length: 500 }, (_, i) => `line ${i + 1}`).join('\n');
    const result = fileLines('long.txt', text, 10);
    assert.match(result, /^long\.txt, lines 10–409 of 500\. Lines 410–500 were not read: ask for them with startLine 410\.\n10: line 10\n/);
    assert.doesNotMatch(result, /masked/);
  });
});
