import * as assert from 'node:assert/strict';
import { collectReply, parseMediaReply, type ChatChunk } from '../../../../src/core';
import { hello, rejectsWith, useEmulator } from '../../support/fixture';

describe('ServiceClient against the emulator: chat', () => {
  const t = useEmulator({ streamChunkBytes: [1, 7], streamDelayMs: 0 });

  it('returns a validated completion with usage', async () => {
    const completion = await t.client.chat(hello);
    assert.equal(completion.choices[0].message.role, 'assistant');
    assert.ok(completion.choices[0].message.content.length > 0);
    assert.equal(completion.choices[0].finish_reason, 'stop');
    assert.ok(completion.usage && completion.usage.total_tokens > 0);
  });

  it('streams the same text as the whole reply, whatever byte cuts the network makes, with usage from the last data event', async () => {
    const whole = (await t.client.chat(hello)).choices[0].message.content;
    for (let run = 0; run < 5; run++) {
      const reply = await collectReply(t.client.chatStream(hello));
      assert.equal(reply.content, whole);
      assert.equal(reply.finishReason, 'stop');
      assert.ok(reply.usage && reply.usage.completion_tokens > 0);
    }
    const stream = t.emulator.requests.filter((r) => r.endpoint === 'chat' && r.stream);
    assert.equal(stream.length, 5);
    assert.equal(stream[0].headers.accept, 'text/event-stream');
  });

  it('sends the same X-Session-ID on every turn of a conversation', async () => {
    await t.client.chat(hello, { sessionId: 'conversation-1' });
    await collectReply(t.client.chatStream(hello, { sessionId: 'conversation-1' }));
    const sessions = t.emulator.requests.filter((r) => r.endpoint === 'chat').map((r) => r.headers['x-session-id']);
    assert.deepEqual(sessions, ['conversation-1', 'conversation-1']);
  });

  it('aborting mid-stream ends with cancelled and closes the server-side connection at once', async () => {
    const controller = new AbortController();
    const received: ChatChunk[] = [];
    const long = { model: 'GigaChat', messages: [{ role: 'user' as const, content: 'Write a lot [long]' }] };
    const error = await rejectsWith(
      (async () => {
        for await (const chunk of t.client.chatStream(long, { signal: controller.signal })) {
          received.push(chunk);
          if (received.length === 3) controller.abort();
        }
      })(),
      'cancelled',
    );
    assert.equal(error.kind, 'cancelled');
    assert.equal(received.length, 3);
    await t.emulator.waitForClosedStreams();
    assert.equal(t.emulator.openStreams, 0);
  });

  it('breaking out of the loop also closes the connection', async () => {
    const long = { model: 'GigaChat', messages: [{ role: 'user' as const, content: 'Write a lot [long]' }] };
    for await (const chunk of t.client.chatStream(long)) {
      assert.ok(chunk.choices.length > 0);
      break;
    }
    await t.emulator.waitForClosedStreams();
    assert.equal(t.emulator.openStreams, 0);
  });

  it('reports the blacklist finish reason', async () => {
    const reply = await collectReply(t.client.chatStream({ model: 'GigaChat', messages: [{ role: 'user', content: 'something forbidden [blacklist]' }] }));
    assert.equal(reply.finishReason, 'blacklist');
  });

  it('a misplaced system message is an invalidRequest with the service message, not retried', async () => {
    const request = {
      model: 'GigaChat',
      messages: [
        { role: 'user' as const, content: 'hi' },
        { role: 'system' as const, content: 'be brief' },
      ],
    };
    const error = await rejectsWith(t.client.chat(request), 'invalidRequest');
    assert.equal(error.status, 422);
    assert.match(error.message, /system message must be the first/);
    assert.ok(error.requestId);
    assert.equal(t.emulator.count('chat'), 1);
  });

  it('an unknown model is notFound', async () => {
    await rejectsWith(t.client.chat({ ...hello, model: 'NoSuchModel' }), 'notFound');
  });

  it('a picture request returns an image tag whose file downloads as a real JPEG with the same client id', async () => {
    const client = t.clientWith({ clientId: 'client-a' });
    const reply = await collectReply(
      client.chatStream({ model: 'GigaChat', messages: [{ role: 'user', content: 'Нарисуй розового кота' }], builtInTools: ['image_generate'] }),
    );
    const { fileIds, parts } = parseMediaReply(reply.content);
    assert.equal(fileIds.length, 1);
    assert.ok(parts.some((p) => p.type === 'text' && p.text.trim().length > 0));
    const file = await client.fileContent(fileIds[0]);
    assert.deepEqual([...file.bytes.subarray(0, 3)], [0xff, 0xd8, 0xff]);
    assert.deepEqual([...file.bytes.subarray(-2)], [0xff, 0xd9]);
    const other = t.clientWith({ clientId: 'client-b' });
    await rejectsWith(other.fileContent(fileIds[0]), 'forbidden');
    await rejectsWith(client.fileContent('../../secret'), 'invalidRequest');
  });

  it('lists models, counts tokens and reads the balance in the contract shapes', async () => {
    const models = await t.client.models();
    assert.ok(models.some((m) => m.id === 'GigaChat-2-Max' && m.type === 'chat'));
    assert.ok(models.some((m) => m.id === 'Embeddings' && m.type === 'embedder'));
    const [count] = await t.client.countTokens(['Привет, мир']);
    assert.ok(count.tokens > 0 && count.characters === 11);
    const balance = await t.client.balance();
    assert.ok(balance.length > 0 && typeof balance[0].value === 'number');
  });
});
