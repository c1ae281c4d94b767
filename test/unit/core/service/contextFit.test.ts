import * as assert from 'node:assert/strict';
import { chatStreamWithinContext, collectReply, type ChatMessage } from '../../../../src/core';
import { dropOlderHalf } from '../../../../src/core/service/contextFit';
import { rejectsWith, useEmulator } from '../../support/fixture';
import type { RecordedRequest } from '../../../emulator/types';

/** About a hundred tokens a message, by the emulator's estimate of four characters a token. */
function conversation(earlier: number, last = 'And what about the tests?'): ChatMessage[] {
  const messages: ChatMessage[] = Array.from({ length: earlier }, (_, i) => ({
    role: i % 2 === 0 ? 'user' : 'assistant',
    content: `${i % 2 === 0 ? 'Question' : 'Answer'} ${i}: ${'слово '.repeat(66)}`,
  }));
  return [...messages, { role: 'user', content: last }];
}

const system: ChatMessage = { role: 'system', content: 'You are a careful reviewer.' };

describe('a conversation longer than the model can take', () => {
  const t = useEmulator({ streamDelayMs: 0, contextTokens: 600 });

  const sentMessages = () => t.emulator.requests.filter((r) => r.endpoint === 'chat').map((r) => r.chat?.messages as ChatMessage[]);

  it('goes whole when it fits, and nothing is said', async () => {
    const shortened: number[] = [];
    const messages = [system, ...conversation(2)];
    const reply = await collectReply(chatStreamWithinContext(t.client, { model: 'GigaChat', messages }, {}, (dropped) => shortened.push(dropped)));
    assert.ok(reply.content.includes('And what about the tests?'));
    assert.deepEqual(sentMessages(), [messages]);
    assert.deepEqual(shortened, []);
  });

  it('is asked again without its older half, keeping the system prompt and starting with a question, and the reply comes', async () => {
    const shortened: number[] = [];
    const messages = conversation(10);
    const reply = await collectReply(
      chatStreamWithinContext(t.client, { model: 'GigaChat', messages: [system, ...messages] }, { sessionId: 's1' }, (dropped) => shortened.push(dropped)),
    );
    assert.equal(reply.finishReason, 'stop');
    assert.ok(reply.content.includes('And what about the tests?'), 'the reply answers the last message');
    // Half of the ten earlier messages is five; the sixth is an answer, so the kept part starts at the next question.
    assert.deepEqual(shortened, [6]);
    const sent = sentMessages();
    assert.equal(sent.length, 2, 'one refusal, then the shorter request');
    assert.deepEqual(sent[1], [system, ...messages.slice(6)]);
    assert.equal(t.emulator.requests.at(-1)?.headers['x-session-id'], 's1', 'the same session throughout');
  });

  it('halves again as often as it takes, down to the last message alone', async () => {
    t.emulator.setOptions({ contextTokens: 150 });
    try {
      const shortened: number[] = [];
      const messages = conversation(20);
      const reply = await collectReply(chatStreamWithinContext(t.client, { model: 'GigaChat', messages }, {}, (dropped) => shortened.push(dropped)));
      assert.ok(reply.content.length > 0);
      assert.deepEqual(
        sentMessages().map((sent) => sent.length),
        [21, 11, 5, 3, 1],
      );
      assert.deepEqual(shortened, [20], 'said once, when the reply begins');
    } finally {
      t.emulator.setOptions({ contextTokens: 600 });
    }
  });

  it('a last message too large on its own is the service error, as it was', async () => {
    const messages = conversation(4, 'x'.repeat(4_000));
    const error = await rejectsWith(
      collectReply(chatStreamWithinContext(t.client, { model: 'GigaChat', messages }, {}, () => assert.fail('nothing was shortened'))),
      'tooLarge',
    );
    assert.equal(error.status, 413);
    assert.deepEqual(
      sentMessages().map((sent) => sent.length),
      [5, 3, 1],
    );
  });

  it('any other error is not a reason to leave messages out', async () => {
    t.emulator.inject({ kind: 'status', status: 422, message: 'Invalid params: temperature' }, { endpoint: 'chat' });
    await rejectsWith(
      collectReply(chatStreamWithinContext(t.client, { model: 'GigaChat', messages: conversation(10) }, {}, () => undefined)),
      'invalidRequest',
    );
    assert.deepEqual(
      sentMessages().map((sent) => sent.length),
      [11],
    );
  });

  it('stopped while it is being shortened, it stops', async () => {
    const controller = new AbortController();
    // The whole conversation is refused at once; the shorter request takes its time.
    const shorter = (request: RecordedRequest) => (request.chat?.messages.length ?? 0) < 11;
    t.emulator.inject({ kind: 'slowFirstByte', ms: 5_000 }, { endpoint: 'chat', match: shorter });
    const reply = collectReply(
      chatStreamWithinContext(t.client, { model: 'GigaChat', messages: conversation(10) }, { signal: controller.signal }, () => assert.fail('no reply began')),
    );
    await waitUntil(() => t.emulator.requests.some(shorter));
    controller.abort();
    await rejectsWith(reply, 'cancelled');
    assert.equal(sentMessages().length, 2, 'not asked again after the stop');
  });
});

describe('dropOlderHalf', () => {
  const roles = (...list: ('user' | 'assistant')[]): ChatMessage[] => list.map((role) => ({ role, content: role }));

  it('leaves out half of the earlier messages, moved on to a question', () => {
    const messages = roles('user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user');
    assert.equal(dropOlderHalf(messages, 0), 4);
    assert.equal(dropOlderHalf(messages, 4), 6);
    assert.equal(dropOlderHalf(messages, 6), undefined, 'only the last message is left');
  });

  it('never keeps an answer without its question, and takes two questions in a row as they are', () => {
    assert.equal(dropOlderHalf(roles('user', 'assistant', 'user', 'user'), 0), 2);
    assert.equal(dropOlderHalf(roles('user', 'user', 'assistant', 'user'), 0), 3);
    assert.equal(dropOlderHalf(roles('user'), 0), undefined);
  });
});

async function waitUntil(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}
