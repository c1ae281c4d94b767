import * as assert from 'node:assert/strict';
import { findingEdit, reviewedText } from '../../../../src/core/scm/findingFix';
import { placeFindings } from '../../../../src/core/scm/findingPlacement';
import { FINDINGS_JSON_SCHEMA, readFindings, type Finding } from '../../../../src/core/scm/reviewFindings';
import { reviewPrompt } from '../../../../src/core/scm/reviewPrompt';
import { sendableChange, type ChangedFile } from '../../../../src/core/scm/sendableChange';
import { parseUnifiedDiff, type DiffFile } from '../../../../src/core/scm/unifiedDiff';
import { toV1Body, toV2Body } from '../../../../src/core/service/contract/requestBodies';

const DIFF = [
  'diff --git a/src/a.ts b/src/a.ts',
  'index 1111111..2222222 100644',
  '--- a/src/a.ts',
  '+++ b/src/a.ts',
  '@@ -10,3 +10,4 @@ function check(value) {',
  '   const a = 1;',
  '-  if (value === null) return;',
  '+  if (value == null) return;',
  '+  log(value);',
  '   return a;',
  'diff --git a/.env b/.env',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/.env',
  '@@ -0,0 +1 @@',
  '+TOKEN=sk-live-123',
  'diff --git a/old.txt b/old.txt',
  'deleted file mode 100644',
  '--- a/old.txt',
  '+++ /dev/null',
  '@@ -1,2 +0,0 @@',
  '-one',
  '-two',
  '',
].join('\n');

const finding = (fields: Partial<Finding>): Finding => ({
  path: 'src/a.ts',
  line: 11,
  severity: 'warning',
  title: 'Loose null check',
  reasoning: 'Why.',
  ...fields,
});

/** The change with `.env` judged a secret (sendableChange.ts), as both commands judge it. */
function withheldEnv(files: readonly DiffFile[]): ChangedFile[] {
  return files.map((file) => (file.path === '.env' ? { ...file, withheld: 'secret' } : file));
}

describe('change review: reading the findings', () => {
  it('reads structured output as it fits the schema, and drops the findings that do not', () => {
    const reply = JSON.stringify({
      findings: [
        { path: 'src/a.ts', line: 11, severity: 'error', title: 'Bug', reasoning: 'Because.', suggestion: '  if (value === null) return;' },
        { path: 'src/a.ts', line: 0, severity: 'error', title: 'No line', reasoning: '' },
        { path: 'src/a.ts', line: 3, severity: 'purple', title: 'Unknown severity', reasoning: '' },
      ],
    });
    const reading = readFindings(reply);
    assert.equal(reading.kind, 'structured');
    assert.equal(reading.malformed, 2);
    assert.deepEqual(reading.findings, [
      { path: 'src/a.ts', line: 11, severity: 'error', title: 'Bug', reasoning: 'Because.', suggestion: '  if (value === null) return;' },
    ]);
  });

  it('reads a finding written loosely (a severity in other words, line numbers as strings) rather than dropping it', () => {
    const loose = (severity: string, line: unknown, endLine?: unknown) => ({ path: 'src/a.ts', line, endLine, severity, title: 'T', reasoning: 'R' });
    const reading = readFindings(
      JSON.stringify({
        findings: [loose('critical', '11', ' 12 '), loose('High', 11), loose('medium', 11), loose('Низкая', 11), loose('minor', 11), loose('error', 'eleven')],
      }),
    );
    assert.deepEqual(
      reading.findings.map((each) => [each.severity, each.line, each.endLine]),
      [
        ['error', 11, 12],
        ['error', 11, undefined],
        ['warning', 11, undefined],
        ['info', 11, undefined],
        ['info', 11, undefined],
      ],
    );
    assert.equal(reading.malformed, 1, 'a line that is no number is still unreadable');
  });

  it('keeps the whole findings of a reply cut at its token limit, and says it was cut rather than showing its JSON', () => {
    const whole = JSON.stringify({ findings: [finding({ title: 'First' }), finding({ title: 'Second', line: 12 }), finding({ title: 'Third' })] }, null, 2);
    const cut = whole.slice(0, whole.indexOf('Third') + 3);
    const reading = readFindings(cut, 'length');
    assert.deepEqual(
      reading.findings.map((each) => each.title),
      ['First', 'Second'],
    );
    assert.equal(reading.cut, true);
    assert.equal(reading.text, undefined, 'no raw JSON shown as a general finding');
    const early = readFindings('```json\n{"findings": [{"path": "src/a.ts", "li', 'length');
    assert.deepEqual([early.findings, early.cut, early.text], [[], true, undefined]);
    assert.equal(readFindings(whole, 'stop').cut, false);
  });

  it('counts a string with braces in it as text, not as the end of a finding', () => {
    const reply = '{"findings": [{"path":"src/a.ts","line":11,"severity":"info","title":"Braces } and { \\" in text","reasoning":"R"}, {"path":"src/a.ts","li';
    assert.deepEqual(
      readFindings(reply, 'length').findings.map((each) => each.title),
      ['Braces } and { " in text'],
    );
  });

  it('finds the JSON in a plain-text reply (a fenced block, or braces in prose) on the previous contract', () => {
    const fenced =
      'Here is my review.\n\n```json\n{"findings":[{"path":"src/a.ts","line":11,"severity":"info","title":"T","reasoning":"R"}]}\n```\nHope it helps.';
    assert.equal(readFindings(fenced).kind, 'lenient');
    assert.equal(readFindings(fenced).findings[0].title, 'T');
    const prose = 'Findings: {"findings": []} — nothing to add.';
    assert.deepEqual(readFindings(prose), { findings: [], malformed: 0, kind: 'lenient', cut: false });
  });

  it('keeps a reply it cannot read as findings as its text, rather than losing it', () => {
    const reading = readFindings('The change looks fine, but `check` should test for undefined too.');
    assert.equal(reading.kind, 'text');
    assert.deepEqual(reading.findings, []);
    assert.equal(reading.text, 'The change looks fine, but `check` should test for undefined too.');
    assert.equal(readFindings('{"findings": "none"}').kind, 'text');
  });

  it('cuts an overlong title so it stays one line of a comment', () => {
    const reading = readFindings(JSON.stringify({ findings: [{ ...finding({}), title: 'x'.repeat(5_000) }] }));
    assert.equal(reading.findings[0].title.length, 200);
  });

  it('asks with a schema that requires what the zod schema requires', () => {
    assert.deepEqual([...FINDINGS_JSON_SCHEMA.properties.findings.items.required], ['path', 'line', 'severity', 'title', 'reasoning']);
  });
});

describe('change review: the request', () => {
  it('numbers the lines as in the file after the change, and names a withheld file without its content', () => {
    const files = parseUnifiedDiff(DIFF);
    const prompt = reviewPrompt(withheldEnv(files), { budgetTokens: 10_000, language: 'English' });
    assert.match(prompt.user, /^11 \+ {3}if \(value == null\) return;$/m);
    assert.match(prompt.user, /^ {3}- {3}if \(value === null\) return;$/m);
    assert.match(prompt.user, /- added \.env \+1 -0 \(content not sent: the file looks like it holds secrets\)/);
    assert.ok(!prompt.user.includes('sk-live-123'), 'the secret is not sent');
    assert.deepEqual(prompt.shown.get('src/a.ts'), [{ first: 10, last: 13 }]);
    assert.equal(prompt.shown.has('.env'), false);
    assert.equal(prompt.leftOutHunks, 0);
    assert.match(prompt.system, /Reply with JSON only/);
  });

  it('judges the change as the commit message does: a private key under a plain name and a lock file are named, their content not sent', async () => {
    const diff = [
      'diff --git a/notes/deploy.txt b/notes/deploy.txt',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/notes/deploy.txt',
      '@@ -0,0 +1,2 @@',
      '+-----BEGIN OPENSSH PRIVATE KEY-----',
      '+b3BlbnNzaC1rZXktdjEAAAAA',
      'diff --git a/package-lock.json b/package-lock.json',
      '--- a/package-lock.json',
      '+++ b/package-lock.json',
      '@@ -1,1 +1,1 @@',
      '-  "lockfileVersion": 2',
      '+  "lockfileVersion": 3',
      DIFF,
    ].join('\n');
    const judge = async (path: string) => (path === 'package-lock.json' ? ('generated' as const) : path === '.env' ? ('secret' as const) : undefined);
    const prompt = reviewPrompt(await sendableChange(parseUnifiedDiff(diff), judge), { budgetTokens: 10_000, language: 'English' });
    for (const content of ['b3BlbnNzaC1rZXktdjEAAAAA', 'lockfileVersion']) assert.ok(!prompt.user.includes(content), `${content} is not sent`);
    assert.match(prompt.user, /- added notes\/deploy\.txt \+2 -0 \(content not sent: the file looks like it holds secrets\)/);
    assert.match(prompt.user, /- modified package-lock\.json \+1 -1 \(content not sent: dependencies, lock file or generated code\)/);
    for (const withheld of ['notes/deploy.txt', 'package-lock.json', '.env']) assert.equal(prompt.shown.has(withheld), false, withheld);
    assert.ok(prompt.shown.has('src/a.ts'));
  });

  it('summarises a change larger than the budget: every file named, the hunks that fit sent, the rest counted and said', () => {
    const big = Array.from({ length: 40 }, (_, file) =>
      [
        `diff --git a/f${file}.ts b/f${file}.ts`,
        `--- a/f${file}.ts`,
        `+++ b/f${file}.ts`,
        '@@ -1,1 +1,200 @@',
        ...Array.from({ length: 200 }, (_, i) => `+const v${i} = ${i};`),
      ].join('\n'),
    ).join('\n');
    const files = parseUnifiedDiff(big);
    const prompt = reviewPrompt(files, { budgetTokens: 8_000, language: 'English' });
    assert.ok(prompt.leftOutHunks > 0 && prompt.leftOutHunks < 40);
    assert.equal(prompt.summarisedFiles, prompt.leftOutHunks);
    for (let file = 0; file < 40; file++) assert.match(prompt.user, new RegExp(`- modified f${file}\\.ts \\+200 -0`));
    assert.match(prompt.user, new RegExp(`Left out for length: ${prompt.leftOutHunks} of 40 hunks`));
    assert.ok(prompt.system.length + prompt.user.length < 8_000 * 3.5, 'within the budget');
  });

  it('sends the schema as model_options.response_format on the current contract, and as response_format on the previous one', () => {
    const request = {
      model: 'GigaChat-2-Max',
      messages: [{ role: 'user' as const, content: 'Review' }],
      responseFormat: { type: 'json_schema' as const, schema: { type: 'object' }, strict: true },
    };
    assert.deepEqual(toV2Body(request, false).model_options, { response_format: { type: 'json_schema', schema: { type: 'object' }, strict: true } });
    const v1 = toV1Body(request, false);
    assert.deepEqual(v1.response_format, { type: 'json_schema', schema: { type: 'object' }, strict: true });
    assert.equal('responseFormat' in v1, false);
  });
});

describe('change review: placing the findings', () => {
  const files = parseUnifiedDiff(DIFF);
  const prompt = reviewPrompt(withheldEnv(files), { budgetTokens: 10_000, language: 'English' });
  const place = (found: Finding[]) => placeFindings(found, prompt.shown, new Set(['old.txt']));

  it('puts a finding on the lines it names, and reads the path leniently', () => {
    const { placed, dropped } = place([
      finding({ line: 11, endLine: 12 }),
      finding({ path: './src/a.ts', line: 12 }),
      finding({ path: 'b/src/a.ts', line: 13 }),
    ]);
    assert.equal(dropped, 0);
    assert.deepEqual(
      placed.map((each) => [each.path, each.first, each.last]),
      [
        ['src/a.ts', 11, 12],
        ['src/a.ts', 12, 12],
        ['src/a.ts', 13, 13],
      ],
    );
  });

  it('reads an end before the start as one line, and cuts an end past the hunk to its end', () => {
    const { placed } = place([finding({ line: 12, endLine: 4 }), finding({ line: 12, endLine: 400 })]);
    assert.deepEqual(
      placed.map((each) => [each.first, each.last]),
      [
        [12, 12],
        [12, 13],
      ],
    );
  });

  it('offers no fix for a finding whose end was cut to the hunk: its suggestion replaces more lines than would be', () => {
    // Lines 10..13 were shown; the model names 12..15 and writes four lines for them.
    const { placed } = place([finding({ line: 12, endLine: 15, suggestion: 'a\nb\nc\nd' }), finding({ line: 12, endLine: 13, suggestion: 'a\nb' })]);
    assert.deepEqual(
      placed.map((each) => [each.first, each.last, each.suggestion]),
      [
        [12, 13, undefined],
        [12, 13, 'a\nb'],
      ],
    );
  });

  it('drops findings about files the model was not shown: not in the change, withheld, or deleted', () => {
    const { placed, dropped } = place([finding({ path: 'src/elsewhere.ts' }), finding({ path: '.env', line: 1 }), finding({ path: 'old.txt', line: 1 })]);
    assert.deepEqual(placed, []);
    assert.equal(dropped, 3);
  });

  it('keeps a finding on a line outside the change at the top of its file, marked, and without its suggestion', () => {
    const { placed } = place([finding({ line: 90, suggestion: 'guess' })]);
    assert.equal(placed.length, 1);
    assert.deepEqual([placed[0].first, placed[0].last, placed[0].outsideChange], [1, 1, { line: 90 }]);
    assert.equal(placed[0].suggestion, undefined);
  });
});

describe('change review: a fix as an edit', () => {
  it('replaces the finding’s lines, taking in lines around them until the piece is found once', () => {
    const text = 'a\nreturn x;\nb\nreturn x;\nc\n';
    assert.deepEqual(findingEdit(text, 4, 4, 'return y;\n'), { oldText: 'b\nreturn x;\nc', newText: 'b\nreturn y;\nc' });
    assert.deepEqual(findingEdit('one\ntwo\n', 2, 2, 'TWO'), { oldText: 'two', newText: 'TWO' });
  });

  it('offers nothing for lines past the end, or a piece that is never unique', () => {
    assert.equal(findingEdit('one\n', 5, 5, 'x'), undefined);
    assert.equal(findingEdit('same\n'.repeat(40), 20, 20, 'x'), undefined);
  });
});

describe('change review: a fix in a file with CRLF line ends', () => {
  it('keeps CRLF on the lines it writes', () => {
    assert.deepEqual(findingEdit('one\r\ntwo\r\nthree\r\n', 2, 2, 'TWO\nMORE'), { oldText: 'two\r', newText: 'TWO\r\nMORE\r' });
  });
});

describe('change review: the reviewed text of a finding’s lines', () => {
  const [file] = parseUnifiedDiff(DIFF);

  it('reads lines from the new side of the hunk that holds them, removed lines aside', () => {
    assert.equal(reviewedText(file, 11, 12), '  if (value == null) return;\n  log(value);');
    assert.equal(reviewedText(file, 10, 10), '  const a = 1;');
  });

  it('has none for lines no one hunk holds', () => {
    assert.equal(reviewedText(file, 13, 14), undefined);
    assert.equal(reviewedText(file, 40, 40), undefined);
  });
});
