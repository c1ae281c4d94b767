import * as assert from 'node:assert/strict';
import { silentLogger } from '../../../../src/core/base/logger';
import type { CompletionRequest } from '../../../../src/core/completion/completeAt';
import { InfillServer, type InfillServerOptions } from '../../../../src/core/completion/infillServer';
import type { InfillServerKind } from '../../../../src/core/completion/infillWire';
import { TestProxy } from '../../../emulator';
import { rejectsWith, useEmulator } from '../../support/fixture';

/** A completion asked at `|` in `code`. */
function at(code: string, multiline: boolean): CompletionRequest {
  return {
    model: 'unused: the server runs its own',
    path: 'src/area.ts',
    languageId: 'typescript',
    text: code.replace('|', ''),
    offset: code.indexOf('|'),
    multiline,
    budgetChars: 4000,
    maxTokens: 64,
    indent: '  ',
    neighbours: [{ path: 'src/shapes.ts', text: 'export const PI = 3.14;' }],
  };
}

describe('completions from a self-hosted fill-in-the-middle server (the emulator serves Ollama, llama.cpp and OpenAI-compatible paths)', () => {
  const t = useEmulator({ streamDelayMs: 0 });
  const servers: InfillServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.dispose()));
  });

  function server(kind: InfillServerKind, overrides: Partial<InfillServerOptions> = {}): InfillServer {
    const made = new InfillServer({
      kind,
      url: new URL(t.emulator.baseUrl).origin,
      model: 'qwen2.5-coder:1.5b',
      ca: [t.emulator.caPem],
      logger: silentLogger,
      ...overrides,
    });
    servers.push(made);
    return made;
  }

  function sent(): Record<string, unknown> {
    const [request] = t.emulator.requests.filter((r) => r.endpoint === 'infill');
    return JSON.parse(request.body) as Record<string, unknown>;
  }

  it('Ollama: /api/generate with the text before the cursor as prompt and after it as suffix; the block only, not the brace after it', async () => {
    const { text } = await server('ollama').complete(at('function area(r) {|\n}\n', true), {});
    assert.equal(text, '\n  const result = 42;\n  return result;');
    const body = sent();
    assert.equal(t.emulator.requests.find((r) => r.endpoint === 'infill')?.path, '/api/generate');
    assert.deepEqual([body.model, body.prompt, body.suffix, body.stream], ['qwen2.5-coder:1.5b', 'function area(r) {', '\n}\n', false]);
    assert.deepEqual(body.options, { num_predict: 64, temperature: 0.1, stop: ['\n\n'] });
  });

  it('llama.cpp: /infill with input_prefix, input_suffix and the files open beside as input_extra', async () => {
    const { text } = await server('llama.cpp').complete(at('const price = 3;\nconst total = |\nexport {};\n', false), {});
    assert.equal(text, 'computeTotal();');
    const body = sent();
    assert.equal(body.input_prefix, 'const price = 3;\nconst total = ');
    assert.equal(body.input_suffix, '\nexport {};\n');
    assert.deepEqual(body.input_extra, [{ filename: 'src/shapes.ts', text: 'export const PI = 3.14;' }]);
    assert.deepEqual(body.stop, ['\n'], 'one line: the server stops at its end');
  });

  it('OpenAI-compatible with the model’s FIM tokens (vLLM): the hole is marked in the prompt, no suffix is sent', async () => {
    const { text } = await server('openai', { url: `${new URL(t.emulator.baseUrl).origin}/v1`, template: 'qwen' }).complete(at('let count = |;\n', false), {});
    assert.equal(text, 'computeCount()', 'the `;` the code after the cursor has already is not repeated');
    const request = t.emulator.requests.find((r) => r.endpoint === 'infill')!;
    assert.equal(request.path, '/v1/completions', 'an address given with /v1 is not given it twice');
    const body = sent();
    assert.equal(body.prompt, '<|fim_prefix|>let count = <|fim_suffix|>;\n<|fim_middle|>');
    assert.equal('suffix' in body, false);
    assert.deepEqual(body.stop, ['\n', '<|fim_prefix|>', '<|fim_suffix|>']);
  });

  it('OpenAI-compatible without a template (Ollama’s /v1): suffix is sent; a `$` in the code reaches the prompt as it is', async () => {
    const { text } = await server('openai').complete(at("const $el = $('x');\nconst value = |\n", false), {});
    assert.equal(text, 'computeValue();');
    const body = sent();
    assert.equal(body.prompt, "const $el = $('x');\nconst value = ");
    assert.equal(body.suffix, '\n');
  });

  it('sends the API key as a bearer token; a server that refuses it is an auth error, and the key is never in its message', async () => {
    t.emulator.setOptions({ infillApiKey: 'team-token-1' });
    try {
      const refused = await rejectsWith(server('ollama').complete(at('const total = |', false), {}), 'auth');
      assert.doesNotMatch(refused.message, /team-token/);
      const { text } = await server('ollama', { apiKey: () => Promise.resolve('team-token-1') }).complete(at('const total = |', false), {});
      assert.equal(text, 'computeTotal();');
    } finally {
      t.emulator.setOptions({ infillApiKey: undefined });
    }
  });

  it('a server that is not there is a network error; an answer of another shape is a protocol error', async () => {
    await rejectsWith(server('ollama', { url: 'https://127.0.0.1:1' }).complete(at('const total = |', false), {}), 'network');
    t.emulator.inject({ kind: 'body', body: '{"unexpected":true}' }, { endpoint: 'infill' });
    await rejectsWith(server('llama.cpp').complete(at('const total = |', false), {}), 'protocol');
  });

  it('stops when asked: the request is aborted', async () => {
    const controller = new AbortController();
    t.emulator.inject({ kind: 'slowFirstByte', ms: 2_000 }, { endpoint: 'infill' });
    const asked = server('ollama').complete(at('const total = |', false), { signal: controller.signal });
    setImmediate(() => controller.abort());
    await rejectsWith(asked, 'cancelled');
  });

  it('a server on this machine is reached directly, its key never through the proxy; a proxy set for the rest stays unused', async () => {
    const proxy = await TestProxy.start();
    try {
      const port = new URL(t.emulator.baseUrl).port;
      for (const host of ['localhost', '127.0.0.1']) {
        const local = server('ollama', { url: `https://${host}:${port}`, proxy: { url: proxy.url, noProxy: '' }, apiKey: () => Promise.resolve('server-key') });
        const { text } = await local.complete(at('function area(r) {|\n}\n', true), {});
        assert.ok(text, host);
      }
      assert.deepEqual(proxy.requests, [], 'nothing asked of the proxy');
      assert.equal(t.emulator.requests.filter((r) => r.endpoint === 'infill').length, 2);
    } finally {
      await proxy.stop();
    }
  });

  it('an address that is not a URL says so', async () => {
    await rejectsWith(server('ollama', { url: 'gpu-box:11434 ' }).complete(at('const total = |', false), {}), 'invalidRequest');
  });
});
