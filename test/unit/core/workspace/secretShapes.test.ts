import * as assert from 'node:assert/strict';
import { changeDigest } from '../../../../src/core/scm/changeDigest';
import { sendableChange } from '../../../../src/core/scm/sendableChange';
import { parseUnifiedDiff } from '../../../../src/core/scm/unifiedDiff';
import { maskedHead, maskTokens, MASK } from '../../../../src/core/workspace/secretShapes';

/** A judge with no rule against any path: what is withheld below is withheld for its content alone. */
const noRules = async () => undefined;
const BODY = [
  'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj',
  'MZ8N3x2vQy9x0JvKk7bB0cKj1x2vQy9x0JvKk7bB0cKj1x2vQy9x0JvKk7bB0cK',
  'kE1BnQ9vAfxj0qHq5bS8Zp3WmQ2v9c0K8hLq4rR7tY1uI3oP5aS6dF8gH0jK2lZ',
];

const diffOf = (name: string, hunk: string[], header = '@@ -1,5 +1,5 @@') =>
  [`diff --git a/${name} b/${name}`, `--- a/${name}`, `+++ b/${name}`, header, ...hunk, ''].join('\n');

describe('a private key or a token in a change is not sent', () => {
  it('withholds a file whose deletion removes a private key', async () => {
    const diff = [
      'diff --git a/deploy/id b/deploy/id',
      'deleted file mode 100644',
      '--- a/deploy/id',
      '+++ /dev/null',
      '@@ -1,5 +0,0 @@',
      '------BEGIN RSA PRIVATE KEY-----',
      ...BODY.map((l) => `-${l}`),
      '------END RSA PRIVATE KEY-----',
      '',
    ].join('\n');
    const [file] = await sendableChange(parseUnifiedDiff(diff), noRules);
    assert.equal(file.withheld, 'secret');
    assert.ok(!changeDigest([file], 10_000).text.includes(BODY[0]));
  });

  it('withholds a file whose change edits a key body with its BEGIN line as context, or in its middle with no marker in sight', async () => {
    const withContext = diffOf('keys/service.pem', [' -----BEGIN PRIVATE KEY-----', `-${BODY[0]}`, `+${BODY[1]}`, ` ${BODY[2]}`]);
    const inTheMiddle = diffOf('keys/other.txt', [` ${BODY[0]}`, `-${BODY[1]}`, `+${BODY[2]}`, ` ${BODY[0]}`], '@@ -10,3 +10,3 @@');
    for (const diff of [withContext, inTheMiddle]) {
      const [file] = await sendableChange(parseUnifiedDiff(diff), noRules);
      assert.equal(file.withheld, 'secret', diff);
    }
  });

  it('masks token shapes in the lines it sends and says how many, leaving the rest of the line', async () => {
    const tokens = [
      "+const aws = 'AKIAIOSFODNN7EXAMPLE';",
      '+aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      "+const gh = 'ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';",
      "+const slack = 'xoxb-1234567890-abcdefghij';",
      "+const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';",
      ' password = hunter2-very-secret',
    ];
    const [file] = await sendableChange(parseUnifiedDiff(diffOf('src/config.ts', tokens, '@@ -1,1 +1,6 @@')), noRules);
    assert.equal(file.withheld, undefined);
    assert.equal(file.masked, 6);
    const text = changeDigest([file], 10_000).text;
    for (const secret of ['AKIAIOSFODNN7EXAMPLE', 'wJalrXUtnFEMI', 'ghp_a1B2', 'xoxb-1234', 'eyJhbGci', 'hunter2'])
      assert.ok(!text.includes(secret), `${secret} not sent`);
    assert.match(text, /\+const gh = '«masked»';/);
    assert.match(text, / password = «masked»/);
    assert.match(text, /src\/config\.ts \+\d+ -\d+ \(6 values that look like secrets masked as «masked»\)/);
  });

  it('masks a password literal in code, and leaves code that only handles a password alone', () => {
    assert.equal(maskTokens("const options = { password: 'correct-horse' };").text, `const options = { password: ${MASK} };`);
    // A literal at the end of its line is masked once, its comma kept.
    assert.deepEqual(maskTokens("  password: 'correct-horse',"), { text: `  password: ${MASK},`, masked: 1 });
    const ordinary = [
      'const password = readPassword();',
      'if (password === undefined) return;',
      'password: string;',
      "const icon = 'iVBORw0KGgo=';",
      'export const AKIA_PREFIX_LENGTH = 4;',
    ];
    for (const line of ordinary) assert.equal(maskTokens(line).masked, 0, line);
  });

  it('code attached to a question is masked before it is cut to its limit: no part of a token is left at the cut', () => {
    const token = `ghp_${'Q1w2E3r4T5'.repeat(4)}`;
    const selection = `${'// filler\n'.repeat(50)}const token = '${token}';\n`;
    const cutAt = selection.indexOf(token) + 10;
    const head = maskedHead(selection, cutAt);
    assert.equal(head.masked, 1);
    assert.ok(head.trimmed);
    assert.ok(!head.text.includes('ghp_'), head.text.slice(-30));
    assert.deepEqual(maskedHead('const a = 1;', 100), { text: 'const a = 1;', masked: 0, trimmed: false });
  });
});
