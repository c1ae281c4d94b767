import * as assert from 'node:assert/strict';
import { askForReview } from '../../../../src/core/scm/reviewRequest';
import { parseUnifiedDiff } from '../../../../src/core/scm/unifiedDiff';
import { useEmulator } from '../../support/fixture';

/** A change with the planted bug (`== null`) on line 11 of src/a.ts. */
const DIFF = [
  'diff --git a/src/a.ts b/src/a.ts',
  '--- a/src/a.ts',
  '+++ b/src/a.ts',
  '@@ -10,3 +10,3 @@',
  '   const a = 1;',
  '-  if (value === null) return;',
  '+  if (value == null) return;',
  '   return a;',
  '',
].join('\n');

const review = { model: 'GigaChat-2-Max', files: parseUnifiedDiff(DIFF), language: 'English' };

describe('change review against the emulator', () => {
  describe('on the current contract', () => {
    const t = useEmulator({ streamDelayMs: 0 });

    it('asks for structured output with the findings schema, and reads the finding the model planted on its line', async () => {
      const { reading } = await askForReview(t.client, review);
      assert.equal(reading?.kind, 'structured');
      assert.deepEqual(
        reading.findings.map((each) => [each.path, each.line, each.severity, each.suggestion]),
        [['src/a.ts', 11, 'warning', '  if (value === null) return;']],
      );
      const body = JSON.parse(t.emulator.requests.find((request) => request.endpoint === 'chat')!.body) as { model_options: Record<string, unknown> };
      const format = body.model_options.response_format as { type: string; strict: boolean; schema: { required: string[] } };
      assert.deepEqual([format.type, format.strict, format.schema.required], ['json_schema', true, ['findings']]);
    });

    it('keeps the findings of a review cut at its token limit, and says it was cut', async () => {
      const lines = Array.from({ length: 80 }, (_, i) => `+  if (value${i} == null) return;`);
      const diff = ['diff --git a/src/b.ts b/src/b.ts', '--- a/src/b.ts', '+++ b/src/b.ts', `@@ -1,0 +1,${lines.length} @@`, ...lines, ''].join('\n');
      const { reading } = await askForReview(t.client, { ...review, files: parseUnifiedDiff(diff) });
      assert.equal(reading?.cut, true);
      assert.ok(reading.findings.length > 10 && reading.findings.length < 80, `${reading.findings.length} whole findings kept`);
      assert.equal(reading.text, undefined);
    });

    it('asks nothing when no file of the change may be sent', async () => {
      const { reading } = await askForReview(t.client, { ...review, files: review.files.map((file) => ({ ...file, withheld: 'ignored' as const })) });
      assert.equal(reading, undefined);
      assert.equal(t.emulator.requests.filter((request) => request.endpoint === 'chat').length, 0);
    });
  });

  describe('on the previous contract (a host without v2)', () => {
    const t = useEmulator({ streamDelayMs: 0, chatV2: false });

    it('keeps the findings schema as response_format, which the production v1 took, and reads the finding', async () => {
      const { reading } = await askForReview(t.client, review);
      const chats = t.emulator.requests.filter((request) => request.endpoint === 'chat');
      assert.equal(chats.at(-1)!.contract, 'v1');
      const body = JSON.parse(chats.at(-1)!.body) as { response_format?: { type: string } };
      assert.equal(body.response_format?.type, 'json_schema');
      assert.equal(reading?.kind, 'structured');
      assert.deepEqual(
        reading.findings.map((each) => [each.path, each.line]),
        [['src/a.ts', 11]],
      );
    });
  });
});
