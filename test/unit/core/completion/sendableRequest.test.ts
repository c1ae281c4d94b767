import * as assert from 'node:assert/strict';
import { completeAt, type CompletionRequest } from '../../../../src/core/completion/completeAt';
import { fileWindow, fillMessages, HOLE } from '../../../../src/core/completion/fillPrompt';
import { sendableRequest } from '../../../../src/core/completion/sendableRequest';
import { MASK } from '../../../../src/core/workspace/secretShapes';
import { useEmulator } from '../../support/fixture';

const GITHUB = `ghp_${'a1B2c3D4e5'.repeat(4)}`;
const AWS = 'AKIAIOSFODNN7EXAMPLE';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';

/** A completion asked at `|` in `code`, with a neighbour's excerpt. */
function at(code: string, neighbour = 'export const PI = 3.14;', budgetChars = 4000): CompletionRequest {
  return {
    model: 'GigaChat-2',
    path: 'src/deploy.ts',
    languageId: 'typescript',
    text: code.replace('|', ''),
    offset: code.indexOf('|'),
    multiline: false,
    budgetChars,
    maxTokens: 48,
    indent: '  ',
    neighbours: [{ path: 'src/config.ts', text: neighbour }],
  };
}

const promptOf = (request: CompletionRequest) =>
  fillMessages(request)
    .map((message) => message.content)
    .join('\n');

/** What a completion sends of the file and of the files beside it: never a value that looks like a token. */
describe('a completion request as it leaves the machine', () => {
  it('masks tokens before and after the cursor and in the neighbours, and says how many', () => {
    const code = `const github = '${GITHUB}';\nconst region = |;\nconst key = '${AWS}';\n`;
    const { request, masked } = sendableRequest(at(code, `const session = '${JWT}';`));
    assert.equal(masked, 3);
    const prompt = promptOf(request);
    for (const secret of [GITHUB, AWS, JWT]) assert.ok(!prompt.includes(secret), secret);
    assert.ok(prompt.includes(`const github = '${MASK}';\nconst region = ${HOLE};\nconst key = '${MASK}';`), prompt);
    assert.ok(prompt.includes(`const session = '${MASK}';`));
  });

  it('keeps the cursor where it was, and sends the same window as before', () => {
    const lines = Array.from({ length: 200 }, (_, i) => `const line${i} = ${i};`);
    lines[190] = `const token = '${GITHUB}';`;
    const code = `${lines.slice(0, 195).join('\n')}\nconst next = |\n${lines.slice(195).join('\n')}`;
    const original = at(code, undefined, 1200);
    const { request } = sendableRequest(original);
    const before = fileWindow(original.text, original.offset, original.budgetChars);
    const after = fileWindow(request.text, request.offset, request.budgetChars);
    assert.equal(after.prefix, before.prefix.replace(GITHUB, MASK));
    assert.equal(after.suffix, before.suffix);
    assert.ok(after.prefix.endsWith('const next = '));
  });

  it('changes nothing in a file without tokens: the prompt is the same, so the prompt cache still serves it', () => {
    const original = at('function area(r) {\n  return |\n}\n');
    const { request, masked } = sendableRequest(original);
    assert.equal(masked, 0);
    assert.equal(promptOf(request), promptOf(original));
  });

  describe('against the emulator', () => {
    const t = useEmulator({ streamDelayMs: 0 });

    it('what reaches the service holds the mask, not the token', async () => {
      const { request } = sendableRequest(at(`const password = "hunter2-but-longer";\nconst github = '${GITHUB}';\nconst total = |\n`));
      await completeAt(t.client, request, {});
      const [sent] = t.emulator.requests.filter((r) => r.endpoint === 'chat');
      assert.ok(!sent.body.includes(GITHUB) && !sent.body.includes('hunter2-but-longer'), sent.body);
      assert.ok(sent.body.includes(MASK));
    });
  });
});
