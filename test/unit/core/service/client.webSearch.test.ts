import * as assert from 'node:assert/strict';
import { collectReply, toServiceFunctions, type ChatRequest } from '../../../../src/core';
import { useEmulator } from '../../support/fixture';

const question = (content: string): ChatRequest => ({
  model: 'GigaChat-3-Ultra',
  messages: [{ role: 'user', content }],
  builtInTools: ['image_generate', 'web_search'],
});

describe('a question that asked for the web (v2)', () => {
  const t = useEmulator({ streamDelayMs: 0 });
  const sent = () => JSON.parse(t.emulator.requests.filter((r) => r.endpoint === 'chat').at(-1)!.body) as { tools: object[]; tool_config: object };

  it('forces the web search, as the recorded requests do, and the answer cites its sources', async () => {
    const reply = await collectReply(t.client.chatStream(question('What is new in Python?')));
    assert.deepEqual(sent().tool_config, { mode: 'forced', tool_name: 'web_search' });
    assert.deepEqual(sent().tools, [{ image_generate: {} }, { web_search: { type: 'actual_info_web_search' } }]);
    assert.ok(Object.keys(reply.sources ?? {}).length > 0);
  });

  it('forces reading the page the question names', async () => {
    const ask = question('Read https://docs.python.org/3/library/pathlib.html and list three uses');
    await t.client.chat({ ...ask, builtInTools: ['web_search', 'url_content_extraction'] });
    assert.deepEqual(sent().tool_config, { mode: 'forced', tool_name: 'url_content_extraction' });
  });

  it('leaves the choice to the model where it has functions of its own to call', async () => {
    const { functions } = toServiceFunctions([{ name: 'read_file', description: 'Reads a file', inputSchema: { type: 'object', properties: {} } }]);
    await t.client.chat({ ...question('What is new in Python?'), functions });
    assert.deepEqual(sent().tool_config, { mode: 'auto' });
  });

  it('a question that did not ask for the web is not made to search', async () => {
    await t.client.chat({ ...question('Draw a cat'), builtInTools: ['image_generate'] });
    assert.deepEqual(sent().tool_config, { mode: 'auto' });
  });
});
