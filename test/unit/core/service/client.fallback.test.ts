import * as assert from 'node:assert/strict';
import { ChatContracts, collectReply, type ChatRequest } from '../../../../src/core';
import { PREVIOUS_CONTRACT_FOR_MS } from '../../../../src/core/service/contract/chatContracts';
import { useEmulator } from '../../support/fixture';

const hello: ChatRequest = { model: 'GigaChat', messages: [{ role: 'user', content: 'Hello' }] };

describe('when chat falls back to the previous contract (v1)', () => {
  describe('on a host that has v2', () => {
    const t = useEmulator({ streamDelayMs: 0 });
    const contracts = () => t.emulator.requests.filter((r) => r.endpoint === 'chat').map((r) => r.contract);

    it('one passing 404 is asked again on v2, and the window stays on v2', async () => {
      t.emulator.inject({ kind: 'status', status: 404, message: 'Not found' }, { endpoint: 'chat' });
      const client = t.clientWith({ chatContracts: new ChatContracts() });
      assert.match((await collectReply(client.chatStream(hello))).content, /Hello/);
      await client.chat(hello);
      assert.deepEqual(contracts(), ['v2', 'v2', 'v2']);
    });

    it('a host absent for a while is spoken to on v1, then on v2 again once that while is over', async () => {
      let now = 1_000_000;
      const client = t.clientWith({ chatContracts: new ChatContracts(() => now) });
      t.emulator.setOptions({ chatV2: false });
      try {
        await client.chat(hello);
        now += PREVIOUS_CONTRACT_FOR_MS - 1;
        await client.chat(hello);
      } finally {
        t.emulator.setOptions({ chatV2: true });
      }
      now += 1;
      await client.chat(hello);
      assert.deepEqual(contracts(), ['v2', 'v2', 'v1', 'v1', 'v2']);
    });
  });

  describe('behind a gateway whose address says "model"', () => {
    const t = useEmulator({ streamDelayMs: 0, chatV2: false, pathPrefix: '/model-gateway' });

    it('a 404 about the path falls back: the service’s own message decides, not the address', async () => {
      assert.match(t.emulator.baseUrl, /\/model-gateway\/api\/v1$/);
      const reply = await t.client.chat(hello);
      assert.match(reply.choices[0].message.content, /Hello/);
      assert.deepEqual(
        t.emulator.requests.filter((r) => r.endpoint === 'chat').map((r) => r.contract),
        ['v2', 'v2', 'v1'],
      );
    });
  });
});
