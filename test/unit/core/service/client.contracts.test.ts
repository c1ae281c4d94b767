import * as assert from 'node:assert/strict';
import { collectReply, parseMediaReply, toServiceFunctions, type ChatRequest, type Logger } from '../../../../src/core';
import { ChatContracts } from '../../../../src/core/service/contract/chatContracts';
import { RANKED_FROM } from '../../../../src/core/service/contract/requestBodies';
import { rejectsWith, useEmulator } from '../../support/fixture';
import { V1_STREAM_COUNT, V2_FUNCTION_ANSWER, V2_FUNCTION_CALL, V2_PICTURE, V2_STREAM_COUNT, V2_WEB_SEARCH } from '../../support/recordedReplies';

const count: ChatRequest = { model: 'GigaChat-3-Ultra', messages: [{ role: 'user', content: 'Count from 1 to 3' }] };

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const keep = (message: string) => lines.push(message);
  return { lines, debug: keep, info: keep, warn: keep, error: keep };
}

describe('the current chat contract (v2) against the emulator', () => {
  const t = useEmulator({ streamDelayMs: 0 });
  const chats = () => t.emulator.requests.filter((r) => r.endpoint === 'chat');

  it('GigaChat-3-Ultra answers on v2/chat/completions, streamed and whole alike, naming its version', async () => {
    const streamed = await collectReply(t.client.chatStream(count));
    const whole = await t.client.chat(count);
    assert.deepEqual(
      chats().map((r) => r.path),
      ['/api/v2/chat/completions', '/api/v2/chat/completions'],
    );
    assert.equal(streamed.content, whole.choices[0].message.content);
    assert.match(streamed.content, /Count from 1 to 3/);
    assert.equal(streamed.model, 'GigaChat-3-Ultra:32.3.18.5');
    assert.equal(streamed.finishReason, 'stop');
    assert.ok(
      streamed.usage && streamed.usage.prompt_tokens > 0 && streamed.usage.total_tokens === streamed.usage.prompt_tokens + streamed.usage.completion_tokens,
    );
  });

  it('sends messages as content parts and settings under model_options, and reads cached tokens of the same session', async () => {
    const request: ChatRequest = { ...count, temperature: 0.3, max_tokens: 500, messages: [{ role: 'system', content: 'Be brief.' }, ...count.messages] };
    await collectReply(t.client.chatStream(request, { sessionId: 'session-1' }));
    const second = await collectReply(t.client.chatStream(request, { sessionId: 'session-1' }));
    const body = JSON.parse(chats()[0].body) as Record<string, unknown>;
    assert.deepEqual(body.messages, [
      { role: 'system', content: [{ text: 'Be brief.' }] },
      { role: 'user', content: [{ text: 'Count from 1 to 3' }] },
    ]);
    assert.deepEqual(body.model_options, { temperature: 0.3, max_tokens: 500 });
    assert.equal(body.stream, true);
    assert.ok((second.usage?.precached_prompt_tokens ?? 0) > 0, 'the second request of the session reads its prefix from the cache');
  });

  it('a function round trip keeps the state id, sends the history unnormalized, and lets the ranker pick among many functions', async () => {
    const tools = Array.from({ length: RANKED_FROM + 3 }, (_, i) => ({
      name: `tool_${i}`,
      description: `Tool number ${i}`,
      inputSchema: { type: 'object', properties: {} },
    }));
    const { functions } = toServiceFunctions(tools);
    const ask: ChatRequest = { model: 'GigaChat-3-Ultra', messages: [{ role: 'user', content: '[call tool_2 {"x":1}] do it' }], functions };
    const call = await collectReply(t.client.chatStream(ask));
    assert.equal(call.functionCall?.name, 'tool_2');
    assert.ok(call.functionsStateId);
    const answer = await t.client.chat({
      ...ask,
      messages: [
        ...ask.messages,
        { role: 'assistant', content: '', function_call: call.functionCall, functions_state_id: call.functionsStateId },
        { role: 'function', name: 'tool_2', content: '{"done":true}' },
      ],
    });
    assert.match(answer.choices[0].message.content, /tool_2.*done/);
    const body = JSON.parse(chats()[1].body) as {
      messages: { role: string; tools_state_id?: string; content: unknown[] }[];
      model_options?: object;
      ranker_options?: object;
      tools: object[];
    };
    assert.deepEqual(
      body.messages.map((m) => [m.role, m.tools_state_id]),
      [
        ['user', undefined],
        ['assistant', call.functionsStateId],
        ['tool', call.functionsStateId],
      ],
    );
    assert.deepEqual(body.messages[2].content, [{ function_result: { name: 'tool_2', result: { done: true } } }]);
    assert.deepEqual(body.model_options, { unnormalized_history: true });
    assert.deepEqual(body.ranker_options, { enabled: true, top_n: RANKED_FROM });
    assert.equal((body.tools[0] as { functions: { specifications: unknown[] } }).functions.specifications.length, RANKED_FROM + 3);
  });

  it('a picture the model draws arrives as a file id the chat downloads, as on v1', async () => {
    const reply = await collectReply(
      t.client.chatStream({ model: 'GigaChat-3-Ultra', messages: [{ role: 'user', content: 'Draw a cat' }], builtInTools: ['image_generate'] }),
    );
    const { fileIds } = parseMediaReply(reply.content);
    assert.equal(fileIds.length, 1);
    const file = await t.client.fileContent(fileIds[0]);
    assert.deepEqual([...file.bytes.subarray(0, 3)], [0xff, 0xd8, 0xff]);
    assert.deepEqual(JSON.parse(chats()[0].body).tools, [{ image_generate: {} }]);
  });

  it('web search answers with numbered sources, and the found pages count as input', async () => {
    const reply = await collectReply(
      t.client.chatStream({ ...count, messages: [{ role: 'user', content: 'What is new in Python?' }], builtInTools: ['web_search'] }),
    );
    assert.match(reply.content, /\[sources=\[2\]\]/);
    assert.deepEqual(Object.keys(reply.sources ?? {}), ['1', '2', '3']);
    assert.match(reply.sources?.['2'].url ?? '', /^https:\/\//);
    assert.ok((reply.usage?.prompt_tokens ?? 0) > 20_000);
    assert.deepEqual(JSON.parse(chats()[0].body).tools, [{ web_search: { type: 'actual_info_web_search' } }]);
  });

  it('a reasoning model streams its reasoning apart from the answer, on both contracts', async () => {
    const ask: ChatRequest = { model: 'GigaChat-2-Reasoning', messages: [{ role: 'user', content: 'Why is the sky blue?' }], reasoningEffort: 'medium' };
    const current = await collectReply(t.client.chatStream(ask));
    assert.match(current.reasoning ?? '', /The user asks: "Why is the sky blue\?"/);
    assert.doesNotMatch(current.content, /The user asks/);
    assert.deepEqual(JSON.parse(chats()[0].body).model_options, { reasoning: { effort: 'medium' } });
    t.emulator.setOptions({ chatV2: false });
    try {
      const previous = await collectReply(t.clientWith().chatStream(ask));
      assert.equal(previous.reasoning, current.reasoning);
      assert.equal(previous.content, current.content);
      assert.equal(JSON.parse(chats().at(-1)!.body).reasoning_effort, 'medium');
    } finally {
      t.emulator.setOptions({ chatV2: true });
    }
  });

  it('a stream cut before response.message.done is an error after the text that arrived', async () => {
    t.emulator.inject({ kind: 'truncatedStream' }, { endpoint: 'chat' });
    const seen: string[] = [];
    const error = await rejectsWith(
      (async () => {
        for await (const chunk of t.client.chatStream(count)) seen.push(chunk.choices[0]?.delta.content ?? '');
      })(),
      'protocol',
    );
    assert.match(error.message, /response\.message\.done/);
    assert.match(seen.join(''), /Emulated answer/);
  });

  it('an error event inside the stream is the service failure it names', async () => {
    const body =
      'event: response.message.delta\ndata: {"messages":[{"role":"assistant","content":[{"text":"Par"}]}]}\n\nevent: error\ndata: {"status":429,"message":"Too many requests"}\n\n';
    t.emulator.inject({ kind: 'body', body, contentType: 'text/event-stream' }, { endpoint: 'chat' });
    const error = await rejectsWith(collectReply(t.client.chatStream(count)), 'rateLimit');
    assert.match(error.message, /Too many requests/);
  });
});

describe('falling back to the previous contract (v1)', () => {
  const t = useEmulator({ streamDelayMs: 0, chatV2: false });

  it('a host without v2 (404 twice) answers on v1 from then on, said once in the log, for every client sharing the contracts', async () => {
    const logger = recordingLogger();
    const contracts = new ChatContracts();
    const first = t.clientWith({ logger, chatContracts: contracts });
    const reply = await collectReply(first.chatStream({ model: 'GigaChat', messages: [{ role: 'user', content: 'Hello' }] }));
    assert.match(reply.content, /Hello/);
    await first.chat({ model: 'GigaChat', messages: [{ role: 'user', content: 'Again' }] });
    await collectReply(
      t.clientWith({ logger, chatContracts: contracts }).chatStream({ model: 'GigaChat', messages: [{ role: 'user', content: 'A new client' }] }),
    );
    assert.deepEqual(
      t.emulator.requests.filter((r) => r.endpoint === 'chat').map((r) => r.contract),
      ['v2', 'v2', 'v1', 'v1', 'v1'],
    );
    assert.equal(logger.lines.filter((line) => /404 twice/.test(line)).length, 1);
  });

  it('an unknown model is still notFound, not a reason to fall back', async () => {
    t.emulator.setOptions({ chatV2: true });
    try {
      const error = await rejectsWith(t.clientWith().chat({ model: 'NoSuchModel', messages: [{ role: 'user', content: 'hi' }] }), 'notFound');
      assert.match(error.message, /No such model/);
      assert.deepEqual(
        t.emulator.requests.filter((r) => r.endpoint === 'chat').map((r) => r.contract),
        ['v2'],
      );
    } finally {
      t.emulator.setOptions({ chatV2: false });
    }
  });

  it('web search, which the previous contract lacks, is left out there, and the log says so', async () => {
    const logger = recordingLogger();
    const client = t.clientWith({ logger });
    const reply = await collectReply(
      client.chatStream({ model: 'GigaChat', messages: [{ role: 'user', content: 'What is new?' }], builtInTools: ['web_search'] }),
    );
    assert.match(reply.content, /What is new\?/);
    assert.equal(reply.sources, undefined);
    assert.ok(logger.lines.some((line) => /\(v1\) has no web_search/.test(line)));
  });

  it('GigaChat 3, served on v2 only, is notFound on a host that has no v2', async () => {
    await rejectsWith(t.clientWith().chat(count), 'notFound');
  });
});

describe('the production service’s recorded replies, read by the client', () => {
  const t = useEmulator({ streamDelayMs: 0 });
  const serve = (body: string, contentType: string) =>
    t.emulator.inject({ kind: 'body', body, contentType }, { endpoint: 'chat', match: (r) => r.contract === 'v2' });

  it('v2 stream: "1, 2, 3" from GigaChat-3-Ultra with its version and usage', async () => {
    serve(V2_STREAM_COUNT, 'text/event-stream');
    const reply = await collectReply(t.client.chatStream(count));
    assert.deepEqual(
      { content: reply.content, model: reply.model, finish: reply.finishReason, usage: reply.usage },
      {
        content: '1, 2, 3',
        model: 'GigaChat-3-Ultra:32.3.18.5',
        finish: 'stop',
        usage: { prompt_tokens: 19, completion_tokens: 8, total_tokens: 27, precached_prompt_tokens: 0 },
      },
    );
  });

  it('v2 function call and the answer after its result', async () => {
    serve(V2_FUNCTION_CALL, 'application/json');
    const call = await t.client.chat(count);
    assert.deepEqual(call.choices[0].message.function_call, { name: 'get_order_status', arguments: { order_id: 'A-1024' } });
    assert.equal(call.choices[0].message.functions_state_id, '019e8373-dc9a-7883-af60-ebb20b79e1e1');
    assert.equal(call.choices[0].finish_reason, 'function_call');
    serve(V2_FUNCTION_ANSWER, 'application/json');
    const answer = await t.client.chat(count);
    assert.equal(answer.choices[0].message.content, 'Order A-1024 is currently packed and scheduled for delivery tomorrow.');
    assert.equal(answer.usage?.total_tokens, 167);
  });

  it('v2 web search: the text with its markers, the two sources, and cached tokens', async () => {
    serve(V2_WEB_SEARCH, 'application/json');
    const { choices, usage } = await t.client.chat(count);
    const message = choices[0].message;
    assert.equal(message.content.match(/\[sources=\[2\]\]/g)?.length, 9);
    assert.match(message.content, /\$1\.5 million/);
    assert.equal(message.sources?.['1'].title, 'Руководство по значительным изменениям в Python 2026');
    assert.equal(message.sources?.['2'].url, 'https://realpython.com/python-news-february-2026/');
    assert.deepEqual(usage, { prompt_tokens: 23767, completion_tokens: 570, total_tokens: 24337, precached_prompt_tokens: 2557 });
  });

  it('v2 picture: the files part becomes the picture the chat downloads, before the text', async () => {
    serve(V2_PICTURE, 'application/json');
    const { parts, fileIds } = parseMediaReply((await t.client.chat(count)).choices[0].message.content);
    assert.deepEqual(fileIds, ['f4b17167-3fa4-40aa-80c6-c737ee40d961']);
    assert.deepEqual(
      parts.map((part) => part.type),
      ['image', 'text'],
    );
  });

  it('v1 stream: GigaChat writes "$1\\, 2\\, 3$" with precached tokens', async () => {
    t.emulator.setOptions({ chatV2: false });
    try {
      t.emulator.inject({ kind: 'body', body: V1_STREAM_COUNT, contentType: 'text/event-stream' }, { endpoint: 'chat', match: (r) => r.contract === 'v1' });
      const reply = await collectReply(t.clientWith().chatStream({ model: 'GigaChat', messages: count.messages }));
      assert.equal(reply.content, '$1\\, 2\\, 3$');
      assert.equal(reply.model, 'GigaChat:2.0.28.2');
      assert.equal(reply.usage?.precached_prompt_tokens, 2);
    } finally {
      t.emulator.setOptions({ chatV2: true });
    }
  });
});
