import * as assert from 'node:assert/strict';
import { applyChunk, type ChatReply } from '../../../src/core';
import { hello, rejectsWith, useEmulator } from '../support/fixture';

describe('the emulator killed and restarted under a client', () => {
  const t = useEmulator({ streamDelayMs: 5 });

  it('a kill cuts a stream in flight, refuses connections until the restart, and the client then carries on', async () => {
    const client = t.client;
    const long = { ...hello, messages: [{ role: 'user' as const, content: 'Write a long answer [long]' }] };
    let reply: ChatReply = { content: '' };
    const stream = client.chatStream(long);
    const first = await stream.next();
    reply = applyChunk(reply, first.value);
    await t.emulator.kill();
    await assert.rejects(
      (async () => {
        for await (const chunk of stream) reply = applyChunk(reply, chunk);
      })(),
      (error: { kind?: string }) => error.kind === 'network',
    );
    assert.ok(reply.content.length > 0, 'what arrived before the kill was delivered');

    const down = await rejectsWith(client.models(), 'network');
    assert.equal(down.code, 'ECONNREFUSED');

    const exchangesBefore = t.emulator.count('oauth');
    await t.emulator.restart();
    const completion = await client.chat(hello);
    assert.ok(completion.choices[0].message.content);
    // The restarted service forgot the token: one 401, one new exchange, no error for the caller.
    assert.equal(t.emulator.count('oauth') - exchangesBefore, 1);
  });
});
