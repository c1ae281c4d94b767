import * as assert from 'node:assert/strict';
import { completeAt, longestReply, type CompletionRequest } from '../../../../src/core/completion/completeAt';
import { HOLE } from '../../../../src/core/completion/fillPrompt';
import type { Usage } from '../../../../src/core/service/schemas';
import { rejectsWith, useEmulator } from '../../support/fixture';

/** A completion asked at `|` in `code`. */
function at(code: string, multiline: boolean): CompletionRequest {
  const offset = code.indexOf('|');
  return {
    model: 'GigaChat-2',
    path: 'src/area.ts',
    languageId: 'typescript',
    text: code.replace('|', ''),
    offset,
    multiline,
    budgetChars: 4000,
    maxTokens: 128,
    indent: '  ',
  };
}

describe('completions against the emulator: the missing text, asked of the chat model', () => {
  const t = useEmulator({ streamDelayMs: 0 });

  it('fills a block with its body only, leaving the closing brace that follows the cursor', async () => {
    const { text } = await completeAt(t.client, at('function area(r) {|\n}\n', true), { sessionId: 'file-1' });
    assert.equal(text, '\n  const result = 42;\n  return result;');
    const [request] = t.emulator.requests.filter((r) => r.endpoint === 'chat');
    assert.match(request.chat?.messages[0].content ?? '', /code completion engine/);
    assert.ok(request.chat?.messages[1].content.includes(`function area(r) {${HOLE}\n}`));
    assert.equal(request.chat?.max_tokens, 128);
    assert.equal(request.headers['x-session-id'], 'file-1', "one session per file: the service's prompt cache serves the shared prefix");
  });

  it('completes the rest of a line, as one line, without the fence and prose the model wraps it in', async () => {
    const { text } = await completeAt(t.client, at('const price = 3;\nconst total = |\n', false), {});
    assert.equal(text, 'computeTotal();');
  });

  it('answers at the end of the answer, and reads the rest after it so the next suggestion needs no new connection', async () => {
    await completeAt(t.client, at('const first = |', false), {});
    const opened = t.emulator.connectionsAccepted;
    const costs: Usage[] = [];
    for (const name of ['Second', 'Third', 'Fourth']) {
      const { text } = await completeAt(t.client, at(`const value${name} = |`, false), { onUsage: (usage) => costs.push(usage) });
      assert.equal(text, `computeValue${name}();`);
    }
    while (costs.length < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    assert.ok(
      costs.every((usage) => usage.prompt_tokens > 0),
      'what each cost comes once its stream has ended',
    );
    assert.equal(t.emulator.connectionsAccepted, opened, 'one connection, kept alive: no TLS handshake per suggestion');
  });

  it('reads a reply that never closes its answer no further than the longest answer asked for, and closes its connection', async () => {
    const request = at('function area(r) {|\n}\n', true);
    t.emulator.inject({ kind: 'completion', missing: '\n  return r * r;', noise: 'runaway' }, { endpoint: 'chat' });
    const partials: string[] = [];
    const { text } = await completeAt(t.client, request, { onPartial: (partial) => partials.push(partial) });
    assert.ok(text.startsWith('\n  return r * r;'), text);
    const sent = t.emulator.requests.find((r) => r.endpoint === 'chat')!;
    for (let i = 0; i < 1000 && !sent.abandoned; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal(sent.abandoned, true, 'the megabyte was not read to its end');
    assert.ok(partials.length <= longestReply(request.maxTokens), `${partials.length} partial suggestions cleaned, each of a bounded reply`);
  });

  it('stops when asked: the request is aborted and nothing is left open', async () => {
    const controller = new AbortController();
    t.emulator.inject({ kind: 'slowFirstByte', ms: 2_000 }, { endpoint: 'chat' });
    const asked = completeAt(t.client, at('const total = |', false), { signal: controller.signal });
    setImmediate(() => controller.abort());
    await rejectsWith(asked, 'cancelled');
    await t.emulator.waitForClosedStreams();
  });

  it('a request given up before its answer closes its connection: the service stops working on it', async () => {
    t.emulator.setOptions({ latencyMs: 5_000 });
    try {
      const controller = new AbortController();
      const asked = completeAt(t.client, at('const cost = |', false), { signal: controller.signal });
      while (!t.emulator.requests.some((r) => r.endpoint === 'chat')) await new Promise((resolve) => setImmediate(resolve));
      controller.abort();
      await rejectsWith(asked, 'cancelled');
      const request = t.emulator.requests.find((r) => r.endpoint === 'chat')!;
      for (let i = 0; i < 1000 && !request.abandoned; i++) await new Promise((resolve) => setTimeout(resolve, 5));
      assert.equal(request.abandoned, true);
    } finally {
      t.emulator.setOptions({ latencyMs: 0 });
    }
  });
});
