import * as assert from 'node:assert/strict';
import {
  answerWithTools,
  askModel,
  emptyTurnRecord,
  CallStates,
  type ChatTools,
  type ConversationMessage,
  type ModelRound,
  type RoundTexts,
  type ToolCall,
  type ToolOutcome,
  type ToolTurnListener,
} from '../../../../src/core';
import { rejectsWith, useEmulator } from '../../support/fixture';

const TEXTS: RoundTexts = { picture: '[picture]', sources: 'Sources', notOffered: (name) => `asked for ${name}, not offered` };
const READ = { name: 'read-file', description: 'Reads a file of the workspace', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } };

const question = (text: string): ConversationMessage => ({ role: 'user', parts: [{ kind: 'text', text }] });

/** Tools that record each call and answer with `outcome` (run while the turn waits on it). */
function recordingTools(outcome: (call: ToolCall) => ToolOutcome | Promise<ToolOutcome>, tools = [READ]): ChatTools & { ran: ToolCall[] } {
  const ran: ToolCall[] = [];
  return {
    ran,
    list: () => tools,
    run: async (call) => {
      ran.push(call);
      return outcome(call);
    },
  };
}

/** A listener that keeps what it heard: the text shown, the thinking, and each round's end. */
function hearing(): ToolTurnListener & { text: string; thought: string; rounds: ModelRound[] } {
  const heard = { text: '', thought: '', rounds: [] as ModelRound[] };
  return Object.assign(heard, {
    onText: (text: string) => (heard.text += text),
    onReasoning: (text: string) => (heard.thought += text),
    onRoundEnd: (round: ModelRound) => heard.rounds.push(round),
  });
}

describe("the chat engine's turn with tools (against the emulator)", () => {
  const t = useEmulator({ streamDelayMs: 0, contextTokens: 600 });
  const sent = () => t.emulator.requests.filter((r) => r.endpoint === 'chat').map((r) => r.chat!);
  const services = () => ({ client: t.client, texts: TEXTS, calls: new CallStates() });

  it("runs the model's call through the tools, sends its result back with the call's state id, and ends with the answer", async () => {
    const tools = recordingTools(() => ({ text: 'Otters hold hands while they sleep.' }));
    const listener = hearing();
    const record = emptyTurnRecord();
    const outcome = await answerWithTools(
      {
        conversation: [question('[call read_file {"path":"otters.md"}] what do otters do?')],
        request: { model: 'GigaChat-2', instructions: 'Answer briefly.' },
        tools,
        services: services(),
        listener,
        signal: new AbortController().signal,
      },
      record,
    );
    assert.equal(outcome.stoppedAtLimit, false);
    assert.deepEqual(
      tools.ran.map(({ toolName, input }) => ({ toolName, input })),
      [{ toolName: 'read-file', input: { path: 'otters.md' } }],
      'the call names the tool as its owner knows it',
    );
    assert.match(record.answer, /Otters hold hands/, 'the answer quotes the result');
    assert.equal(listener.text, record.answer, 'everything said was shown as it streamed');
    assert.equal(listener.rounds.length, 2);
    const [asked, answered] = sent();
    assert.equal(asked.messages[0].role, 'system');
    assert.match(asked.messages[0].content, /Answer briefly/);
    assert.deepEqual(
      asked.functions?.map((fn) => fn.name),
      ['read_file'],
    );
    const call = answered.messages.find((message) => message.function_call);
    assert.ok(call?.tools_state_id, "the call goes back with the service's state id");
    assert.equal(answered.messages.find((message) => message.role === 'function')?.name, 'read_file');
  });

  it('never runs a tool it did not offer: the model is told twice, then the answer says so', async () => {
    t.emulator.inject({ kind: 'functionCall', name: 'copilot_readFile', arguments: { filePath: '.env' } }, { endpoint: 'chat', times: 3 });
    const tools = recordingTools(() => assert.fail('nothing is run'));
    const listener = hearing();
    const record = emptyTurnRecord();
    await answerWithTools(
      {
        conversation: [question('what is in the environment file?')],
        request: { model: 'GigaChat-2', instructions: '' },
        tools,
        services: services(),
        listener,
        signal: new AbortController().signal,
      },
      record,
    );
    assert.equal(sent().length, 3);
    assert.match(sent()[1].messages.at(-1)!.content, /"copilot_readFile", which is not offered here/);
    assert.equal(record.answer, 'asked for copilot_readFile, not offered');
    assert.deepEqual(listener.rounds[0].dropped, ['copilot_readFile', 'copilot_readFile', 'copilot_readFile']);
  });

  it("shows a reasoning model's thinking apart, never in the answer", async () => {
    const listener = hearing();
    const record = emptyTurnRecord();
    await answerWithTools(
      {
        conversation: [question('Why is the sky blue?')],
        request: { model: 'GigaChat-2-Reasoning', instructions: '' },
        tools: recordingTools(() => ({ text: '' }), []),
        services: services(),
        listener,
        signal: new AbortController().signal,
      },
      record,
    );
    assert.ok(listener.thought.length > 0, 'the thinking was heard');
    assert.ok(!record.answer.includes(listener.thought.trim()), 'and is not part of the answer');
    assert.match(record.answer, /Why is the sky blue/);
  });

  it('stopped while a tool runs: the call is kept, and the model is not asked again', async () => {
    const stop = new AbortController();
    const tools = recordingTools(() => {
      stop.abort();
      return { text: 'done', changed: 'a.md' };
    });
    const record = emptyTurnRecord();
    await answerWithTools(
      {
        conversation: [question('[call read_file {"path":"a.md"}] change it')],
        request: { model: 'GigaChat-2', instructions: '' },
        tools,
        services: services(),
        listener: hearing(),
        signal: stop.signal,
      },
      record,
    );
    assert.equal(sent().length, 1);
    assert.equal(record.rounds[0].calls[0].changed, 'a.md');
  });

  it('a failure after a call rejects with the service error, and the record keeps what was done', async () => {
    const tools = recordingTools(() => {
      t.emulator.inject({ kind: 'status', status: 500 }, { endpoint: 'chat', times: 10 });
      return { text: 'Changed a.md', changed: 'a.md' };
    });
    const record = emptyTurnRecord();
    await rejectsWith(
      answerWithTools(
        {
          conversation: [question('[call read_file {"path":"a.md"}] change it')],
          request: { model: 'GigaChat-2', instructions: '' },
          tools,
          services: services(),
          listener: hearing(),
          signal: new AbortController().signal,
        },
        record,
      ),
      'server',
    );
    assert.equal(record.rounds[0].calls[0].changed, 'a.md');
  });

  it('a conversation too large for the model goes without its oldest messages, and the round says how many', async () => {
    const earlier = Array.from({ length: 10 }, (_, i): ConversationMessage => ({
      role: i % 2 === 0 ? 'user' : 'assistant',
      parts: [{ kind: 'text', text: `Message ${i}: ${'слово '.repeat(66)}` }],
    }));
    const heard: string[] = [];
    const round = await askModel(
      [...earlier, question('And what about the tests?')],
      { model: 'GigaChat-2', instructions: 'Be brief.', tools: [] },
      services(),
      { onText: (text) => heard.push(text) },
      new AbortController().signal,
    );
    assert.ok(round.shortened > 0, 'the oldest messages were left out');
    assert.match(round.text, /And what about the tests\?/);
    assert.equal(heard.join(''), round.text);
    const last = sent().at(-1)!;
    assert.equal(last.messages[0].role, 'system', 'the instructions always go');
    assert.equal(last.messages.length, 1 + 10 - round.shortened + 1);
  });

  it("forces the one tool there is when asked to ('required'), and lets the model decide among several", async () => {
    const other = { ...READ, name: 'list-files' };
    const ask = (tools: (typeof READ)[]) =>
      askModel(
        [question('list them')],
        { model: 'GigaChat-2', instructions: '', tools, toolMode: 'required' },
        services(),
        { onText: () => undefined },
        new AbortController().signal,
      );
    const forced = await ask([READ]);
    assert.equal(forced.calls[0]?.toolName, 'read-file');
    await ask([READ, other]);
    assert.deepEqual(
      sent().map((request) => request.function_call),
      [{ name: 'read_file' }, 'auto'],
    );
  });
});
