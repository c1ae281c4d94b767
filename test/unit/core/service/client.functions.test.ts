import * as assert from 'node:assert/strict';
import { collectReply, toServiceFunctions, type ChatMessage, type ChatReply, type ChatRequest, type ServiceFunction } from '../../../../src/core';
import { rejectsWith, useEmulator } from '../../support/fixture';

/** Tools shaped as VS Code and MCP servers describe them: schemas the service would refuse as they are. */
const TOOLS = [
  {
    name: 'copilot-readFile',
    description: 'Read a file of the workspace',
    inputSchema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      additionalProperties: false,
      properties: { path: { type: 'string', format: 'uri-reference' }, startLine: { type: 'integer', default: 1 } },
      required: ['path'],
    },
  },
  {
    name: 'mcp.search/code',
    description: 'Search the code',
    inputSchema: { type: 'object', properties: { query: { anyOf: [{ type: 'string' }, { type: 'null' }] } }, required: ['query'] },
  },
  {
    name: 'mcp_github_create_issue',
    description: 'Create an issue',
    inputSchema: {
      type: 'object',
      $defs: { Label: { type: 'object', additionalProperties: false, properties: { name: { type: 'string', minLength: 1 }, sub: { $ref: '#/$defs/Label' } } } },
      properties: {
        labels: { type: 'array', items: { $ref: '#/$defs/Label' }, uniqueItems: true },
        state: { oneOf: [{ const: 'open' }, { const: 'closed' }], default: 'open' },
        body: { allOf: [{ properties: { text: { type: 'string' } } }, { required: ['text'] }] },
      },
    },
  },
];

const { functions, names } = toServiceFunctions(TOOLS);
const [readFile, searchCode] = functions.map((fn) => fn.name);

/** Runs one request as the caller chooses: whole, or streamed and folded. */
type Ask = (request: ChatRequest) => Promise<ChatReply>;

describe('ServiceClient against the emulator: function calling', () => {
  const t = useEmulator({ streamChunkBytes: [1, 7], streamDelayMs: 0 });

  const whole: Ask = async (request) => {
    const completion = await t.client.chat(request);
    const { message, finish_reason } = completion.choices[0];
    return {
      content: message.content,
      finishReason: finish_reason ?? undefined,
      functionsStateId: message.functions_state_id,
      functionCall: message.function_call && { name: message.function_call.name, arguments: message.function_call.arguments as Record<string, unknown> },
    };
  };
  const streamed: Ask = (request) => collectReply(t.client.chatStream(request));

  /** The assistant message to send back in the history, with its call and state id, as the contract asks. */
  const assistantCall = (reply: ChatReply): ChatMessage => ({
    role: 'assistant',
    content: reply.content,
    function_call: reply.functionCall,
    functions_state_id: reply.functionsStateId,
  });

  for (const [mode, ask] of [
    ['whole', whole],
    ['streamed', streamed],
  ] as const) {
    it(`${mode}: a tool loop: the call with its arguments object, the result sent back, and an answer that uses it`, async () => {
      const messages: ChatMessage[] = [{ role: 'user', content: `What is in a.ts? [call ${readFile} {"path":"src/a.ts","startLine":3}]` }];
      const first = await ask({ model: 'GigaChat', messages, functions });
      assert.equal(first.finishReason, 'function_call');
      assert.equal(first.content, '');
      assert.deepEqual(first.functionCall, { name: readFile, arguments: { path: 'src/a.ts', startLine: 3 } });
      assert.ok(first.functionsStateId);
      assert.equal(names.toolName(first.functionCall?.name ?? ''), 'copilot-readFile');

      messages.push(assistantCall(first), { role: 'function', name: readFile, content: JSON.stringify({ text: 'export const answer = 42;' }) });
      const final = await ask({ model: 'GigaChat', messages, functions });
      assert.equal(final.finishReason, 'stop');
      assert.equal(final.functionCall, undefined);
      assert.match(final.content, /export const answer = 42;/);
    });
  }

  it('two tools asked for in one question come as two calls, the second only once the first result is in', async () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: `Find retry, then open it: [call ${searchCode} {"query":"retry"}] [call ${readFile} {"path":"retry.ts"}]` },
    ];
    const first = await streamed({ model: 'GigaChat', messages, functions });
    assert.deepEqual(first.functionCall, { name: searchCode, arguments: { query: 'retry' } });
    messages.push(assistantCall(first), { role: 'function', name: searchCode, content: '"retry.ts:1"' });
    const second = await streamed({ model: 'GigaChat', messages, functions });
    assert.deepEqual(second.functionCall, { name: readFile, arguments: { path: 'retry.ts' } });
    messages.push(assistantCall(second), { role: 'function', name: readFile, content: '"export function retry() {}"' });
    const final = await streamed({ model: 'GigaChat', messages, functions });
    assert.equal(final.finishReason, 'stop');
    assert.match(final.content, /retry\.ts:1/);
    assert.match(final.content, /export function retry/);
  });

  it('a forced function is called even when the question does not ask for it', async () => {
    const request: ChatRequest = {
      model: 'GigaChat',
      messages: [{ role: 'user', content: 'Tell me about the project' }],
      functions,
      function_call: { name: searchCode, partial_arguments: { query: 'README' } },
    };
    const reply = await whole(request);
    // The current contract forces a function by name only (`tool_config.function_name`): the model fills every argument.
    assert.equal(reply.functionCall?.name, searchCode);
    const free = await whole({ ...request, function_call: 'auto' });
    assert.equal(free.functionCall, undefined);
    const none = await whole({ ...request, messages: [{ role: 'user', content: `[call ${readFile} {"path":"a"}]` }], function_call: 'none' });
    assert.equal(none.functionCall, undefined);
  });

  it('every reduced tool is accepted by the service, the call mapping back to its tool', async () => {
    const [, , createIssue] = functions.map((fn) => fn.name);
    const reply = await whole({
      model: 'GigaChat',
      messages: [{ role: 'user', content: `File it: [call ${createIssue} {"labels":[{"name":"bug"}]}]` }],
      functions,
    });
    assert.equal(names.toolName(reply.functionCall?.name ?? ''), 'mcp_github_create_issue');
    assert.deepEqual(reply.functionCall?.arguments, { labels: [{ name: 'bug' }] });
  });

  it('a schema sent as the tool gave it is refused with 422 (the reduction is what makes it pass)', async () => {
    const raw = { name: readFile, description: TOOLS[0].description, parameters: TOOLS[0].inputSchema } as unknown as ServiceFunction;
    const error = await rejectsWith(t.client.chat({ model: 'GigaChat', messages: [{ role: 'user', content: 'hi' }], functions: [raw] }), 'invalidRequest');
    assert.equal(error.status, 422);
    assert.match(error.message, /\$schema is not supported/);
    const badName = { ...functions[0], name: 'copilot-readFile' };
    await rejectsWith(t.client.chat({ model: 'GigaChat', messages: [{ role: 'user', content: 'hi' }], functions: [badName] }), 'invalidRequest');
    assert.equal(t.emulator.count('chat'), 2);
  });

  it('on the previous contract, a function result that is not JSON, or answers no call, is refused with 422', async () => {
    t.emulator.setOptions({ chatV2: false });
    const call: ChatMessage = { role: 'assistant', content: '', function_call: { name: readFile, arguments: { path: 'a' } } };
    const ask = (messages: ChatMessage[]) => t.client.chat({ model: 'GigaChat', messages: [{ role: 'user', content: 'open a' }, ...messages], functions });
    assert.match((await rejectsWith(ask([call, { role: 'function', name: readFile, content: 'plain text' }]), 'invalidRequest')).message, /must be JSON/);
    assert.match((await rejectsWith(ask([call, { role: 'function', name: searchCode, content: '"x"' }]), 'invalidRequest')).message, /must follow/);
    assert.match((await rejectsWith(ask([{ role: 'function', name: readFile, content: '"x"' }]), 'invalidRequest')).message, /must follow/);
    t.emulator.setOptions({ chatV2: true });
  });

  it('text2image still answers with a picture when functions are offered but none is asked for', async () => {
    const reply = await whole({ model: 'GigaChat', messages: [{ role: 'user', content: 'Draw a cat' }], functions, builtInTools: ['image_generate'] });
    assert.match(reply.content, /<img src="[0-9a-f-]{36}"/);
    const forced = await whole({ model: 'GigaChat', messages: [{ role: 'user', content: 'A cat, please' }], function_call: { name: 'text2image' } });
    assert.match(forced.content, /<img src="[0-9a-f-]{36}"/);
  });
});
