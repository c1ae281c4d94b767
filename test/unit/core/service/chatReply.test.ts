import * as assert from 'node:assert/strict';
import { applyChunk, type ChatChunk, type ChatReply } from '../../../../src/core';

const chunk = (delta: ChatChunk['choices'][number]['delta'], finish?: ChatChunk['choices'][number]['finish_reason']): ChatChunk => ({
  choices: [{ delta, index: 0, finish_reason: finish }],
});

describe('applyChunk: a streamed function call', () => {
  it('keeps the call of the delta that carried it through the finish chunk after it', () => {
    let reply: ChatReply = { content: '' };
    reply = applyChunk(
      reply,
      chunk({ role: 'assistant', content: '', function_call: { name: 'read_file', arguments: { path: 'a.ts' } }, functions_state_id: 'state-1' }),
    );
    reply = applyChunk(reply, chunk({ content: '' }, 'function_call'));
    assert.deepEqual(reply, {
      content: '',
      finishReason: 'function_call',
      usage: undefined,
      functionsStateId: 'state-1',
      model: undefined,
      functionCall: { name: 'read_file', arguments: { path: 'a.ts' } },
    });
  });

  it('reads arguments sent as a JSON string, and treats unreadable ones as none', () => {
    const fromString = applyChunk({ content: '' }, chunk({ function_call: { name: 'search', arguments: '{"query":"retry"}' } }));
    assert.deepEqual(fromString.functionCall, { name: 'search', arguments: { query: 'retry' } });
    const broken = applyChunk({ content: '' }, chunk({ function_call: { name: 'search', arguments: '{"query":' } }));
    assert.deepEqual(broken.functionCall, { name: 'search', arguments: {} });
    const array = applyChunk({ content: '' }, chunk({ function_call: { name: 'search', arguments: [1] } }));
    assert.deepEqual(array.functionCall, { name: 'search', arguments: {} });
  });
});
