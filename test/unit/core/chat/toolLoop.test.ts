import * as assert from 'node:assert/strict';
import {
  changedFiles,
  emptyTurnRecord,
  forHistory,
  HISTORY_RESULT_BOUNDS,
  MAX_TOOL_CALLS,
  readTurnRecord,
  runAgentLoop,
  turnMessages,
  type AgentLoop,
  type ConversationMessage,
  type ToolCall,
  type ToolOutcome,
} from '../../../../src/core';

const question: ConversationMessage = { role: 'user', parts: [{ kind: 'text', text: 'Fix the bug' }] };
const callOf = (toolName: string, input: Record<string, unknown> = {}, callId = `${toolName}-${JSON.stringify(input)}`): ToolCall => ({
  callId,
  toolName,
  input,
});

/** A model that plays `rounds` in order (each: its text and calls), and records what it was sent each time. */
function scriptedLoop(rounds: { text: string; calls: ToolCall[] }[], run: (call: ToolCall) => Promise<ToolOutcome>, offered = ['read', 'edit']) {
  const seen: ConversationMessage[][] = [];
  const ran: ToolCall[] = [];
  let cancelled = false;
  const loop: AgentLoop = {
    offered: new Set(offered),
    respond: async (messages) => {
      seen.push([...messages]);
      const next = rounds.shift();
      if (!next) throw new Error('the model was asked once more than scripted');
      return next;
    },
    run: async (call) => {
      ran.push(call);
      return run(call);
    },
    cancelled: () => cancelled,
  };
  return { loop, seen, ran, cancel: () => (cancelled = true) };
}

describe("runAgentLoop: the agent's turn, run and remembered", () => {
  it("runs the model's calls, gives it their results, and ends with its answer", async () => {
    const { loop, seen, ran } = scriptedLoop(
      [
        { text: 'Reading.', calls: [callOf('read', { path: 'a.ts' })] },
        { text: 'It is fixed.', calls: [] },
      ],
      async () => ({ text: 'line 1: bug()' }),
    );
    const record = emptyTurnRecord();
    const outcome = await runAgentLoop([question], loop, record);
    assert.equal(outcome.stoppedAtLimit, false);
    assert.deepEqual(
      ran.map((call) => call.toolName),
      ['read'],
    );
    assert.deepEqual(seen[1].at(-1), { role: 'user', parts: [{ kind: 'toolResult', callId: 'read-{"path":"a.ts"}', text: 'line 1: bug()' }] });
    assert.equal(record.answer, 'It is fixed.');
    assert.equal(record.rounds[0].calls[0].result, 'line 1: bug()');
  });

  it('refuses a tool it did not offer, without running it, and tells the model which it may use', async () => {
    const { loop, seen, ran } = scriptedLoop(
      [
        { text: '', calls: [callOf('copilot_readFile', { filePath: '.env' })] },
        { text: 'Sorry.', calls: [] },
      ],
      async () => ({ text: 'ran' }),
    );
    const record = emptyTurnRecord();
    await runAgentLoop([question], loop, record);
    assert.deepEqual(ran, []);
    const result = seen[1].at(-1)!.parts[0];
    assert.ok(result.kind === 'toolResult' && /no tool named "copilot_readFile".*read, edit/.test(result.text), JSON.stringify(result));
  });

  it('keeps what the turn did when the model fails after a change, and gives it back as history', async () => {
    const { loop } = scriptedLoop([{ text: 'Editing.', calls: [callOf('edit', { path: 'a.ts', newText: 'x' })] }], async () => ({
      text: 'Changed a.ts from line 3.',
      changed: 'a.ts',
    }));
    const record = emptyTurnRecord();
    await assert.rejects(runAgentLoop([question], loop, record), /asked once more than scripted/);
    assert.deepEqual(changedFiles(record), ['a.ts']);
    const stored = readTurnRecord(JSON.parse(JSON.stringify(record)));
    assert.ok(stored, 'the record survives being stored as JSON');
    assert.deepEqual(turnMessages(stored), [
      {
        role: 'assistant',
        parts: [
          { kind: 'text', text: 'Editing.' },
          { kind: 'toolCall', callId: 'edit-{"path":"a.ts","newText":"x"}', toolName: 'edit', input: { path: 'a.ts', newText: 'x' } },
        ],
      },
      { role: 'user', parts: [{ kind: 'toolResult', callId: 'edit-{"path":"a.ts","newText":"x"}', text: 'Changed a.ts from line 3.' }] },
    ]);
  });

  it('stops at the call limit, and when the user stops it', async () => {
    const many = Array.from({ length: MAX_TOOL_CALLS + 3 }, (_, i) => ({ text: '', calls: [callOf('read', { n: i })] }));
    const limited = scriptedLoop(many, async () => ({ text: 'ok' }));
    const record = emptyTurnRecord();
    assert.equal((await runAgentLoop([question], limited.loop, record)).stoppedAtLimit, true);
    assert.equal(limited.ran.length, MAX_TOOL_CALLS);

    const stopped = scriptedLoop([{ text: '', calls: [callOf('read'), callOf('edit')] }], async () => {
      stopped.cancel();
      return { text: 'ok' };
    });
    await runAgentLoop([question], stopped.loop, emptyTurnRecord());
    assert.equal(stopped.ran.length, 1, 'the second call of the round never runs after Stop');
  });

  it('holds a huge result within bounds before the model reads it', async () => {
    const { loop, seen } = scriptedLoop(
      [
        { text: '', calls: [callOf('read')] },
        { text: 'done', calls: [] },
      ],
      async () => ({ text: 'x'.repeat(2_000_000) }),
    );
    await runAgentLoop([question], loop, emptyTurnRecord());
    const result = seen[1].at(-1)!.parts[0];
    assert.ok(result.kind === 'toolResult' && result.text.length < 45_000, `result of ${result.kind === 'toolResult' ? result.text.length : 0} characters`);
  });

  it("cuts long results in an earlier turn's history, and keeps what a change said", () => {
    const record = {
      rounds: [
        {
          text: '',
          calls: [
            { callId: 'r', toolName: 'read', input: {}, result: 'line\n'.repeat(5_000) },
            { callId: 'e', toolName: 'edit', input: {}, result: 'Changed a.ts from line 3.', changed: 'a.ts' },
          ],
        },
      ],
      answer: 'Done.',
    };
    const [, results] = turnMessages(forHistory(record));
    const [read, edit] = results.parts;
    assert.ok(read.kind === 'toolResult' && read.text.length <= HISTORY_RESULT_BOUNDS.maxChars + 64 && read.text.includes('not shown'));
    assert.ok(edit.kind === 'toolResult' && edit.text === 'Changed a.ts from line 3.');
  });

  it('reads back nothing from a damaged or foreign record', () => {
    assert.equal(readTurnRecord(undefined), undefined);
    assert.equal(readTurnRecord({ rounds: 'many' }), undefined);
    assert.equal(readTurnRecord({ rounds: [{ text: 1, calls: [] }], answer: '' }), undefined);
  });
});
