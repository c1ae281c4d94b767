import * as assert from 'node:assert/strict';
import {
  collectReply,
  FileUploads,
  FunctionNames,
  pictureFromBytes,
  toServiceConversation,
  toServiceFunctions,
  type ConversationMessage,
} from '../../../../src/core';
import { useEmulator } from '../../support/fixture';

const user = (text: string): ConversationMessage => ({ role: 'user', parts: [{ kind: 'text', text }] });

describe("toServiceConversation: VS Code's conversation as the service's messages", () => {
  it('gives each of several calls of one message its own assistant message, its result right after it', () => {
    const names = new FunctionNames(['read-file', 'search']);
    const { messages } = toServiceConversation(
      [
        user('Where is retry?'),
        {
          role: 'assistant',
          parts: [
            { kind: 'text', text: 'Looking.' },
            { kind: 'toolCall', callId: 'a', toolName: 'read-file', input: { path: 'x.ts' } },
            { kind: 'toolCall', callId: 'b', toolName: 'search', input: { query: 'retry' } },
          ],
        },
        {
          role: 'user',
          parts: [
            { kind: 'toolResult', callId: 'b', text: 'found in retry.ts' },
            { kind: 'toolResult', callId: 'a', text: '{"lines":3}' },
          ],
        },
      ],
      names,
      new Map([['a', 'state-a']]),
    );
    assert.deepEqual(messages, [
      { role: 'user', content: 'Where is retry?' },
      { role: 'assistant', content: 'Looking.' },
      { role: 'assistant', content: '', function_call: { name: 'read_file', arguments: { path: 'x.ts' } }, functions_state_id: 'state-a' },
      { role: 'function', name: 'read_file', content: '{"lines":3}' },
      { role: 'assistant', content: '', function_call: { name: 'search', arguments: { query: 'retry' } } },
      { role: 'function', name: 'search', content: '"found in retry.ts"' },
    ]);
  });

  it('answers a call left without a result, and tells a result without its call as text', () => {
    const { messages } = toServiceConversation(
      [
        user('Do it'),
        { role: 'assistant', parts: [{ kind: 'toolCall', callId: 'lost', toolName: 'edit', input: {} }] },
        {
          role: 'user',
          parts: [
            { kind: 'toolResult', callId: 'unknown', text: 'orphan result' },
            { kind: 'text', text: 'And now?' },
          ],
        },
      ],
      new FunctionNames(),
    );
    assert.equal(messages[2].role, 'function');
    assert.match(messages[2].content, /not run/);
    assert.deepEqual(messages[3], { role: 'user', content: 'orphan result\n\nAnd now?' });
  });

  it("puts the caller's instructions first in the system message, before the conversation's own system text", () => {
    const { messages } = toServiceConversation(
      [{ role: 'system', parts: [{ kind: 'text', text: 'Be brief.' }] }, user('Hi')],
      new FunctionNames(),
      new Map(),
      'You are an agent.',
    );
    assert.deepEqual(messages[0], { role: 'system', content: 'You are an agent.\n\nBe brief.' });
    assert.equal(toServiceConversation([user('Hi')], new FunctionNames(), new Map(), '  ').messages[0].role, 'user');
  });

  it('sends system text first, in one message, and points files at their message', () => {
    const picture = pictureFromBytes(new Uint8Array([1, 2, 3]), 'image/png');
    const { messages, files } = toServiceConversation(
      [
        user('Hi'),
        { role: 'system', parts: [{ kind: 'text', text: 'Be brief.' }] },
        {
          role: 'user',
          parts: [
            { kind: 'text', text: 'What is this?' },
            { kind: 'file', file: picture },
          ],
        },
      ],
      new FunctionNames(),
    );
    assert.deepEqual(
      messages.map((message) => [message.role, message.content]),
      [
        ['system', 'Be brief.'],
        ['user', 'Hi'],
        ['user', 'What is this?'],
      ],
    );
    assert.deepEqual(files, [{ messageIndex: 2, file: picture }]);
  });
});

describe('toServiceConversation against the emulator', () => {
  const t = useEmulator({ streamDelayMs: 0 });

  it('is a history the service takes: after the tool result the model answers with it', async () => {
    const { functions, names } = toServiceFunctions([
      { name: 'read-file', description: 'Read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
    ]);
    const first = await collectReply(
      t.client.chatStream({
        model: 'GigaChat',
        messages: toServiceConversation([user('[call read_file {"path":"a.ts"}] read it')], names).messages,
        functions,
      }),
    );
    assert.equal(first.functionCall?.name, 'read_file');
    const conversation = toServiceConversation(
      [
        user('[call read_file {"path":"a.ts"}] read it'),
        {
          role: 'assistant',
          parts: [{ kind: 'toolCall', callId: 'c1', toolName: names.toolName(first.functionCall.name)!, input: first.functionCall.arguments }],
        },
        { role: 'user', parts: [{ kind: 'toolResult', callId: 'c1', text: 'export const answer = 42;' }] },
      ],
      names,
      new Map([['c1', first.functionsStateId ?? '']]),
    );
    const answer = await collectReply(t.client.chatStream({ model: 'GigaChat', messages: conversation.messages, functions }));
    assert.equal(answer.functionCall, undefined);
    assert.match(answer.content, /answer = 42/);
    // The state id the service gave with the call went back with the call and with its result.
    const sent = t.emulator.requests.filter((r) => r.endpoint === 'chat').at(-1)?.chat?.messages ?? [];
    assert.ok(first.functionsStateId);
    assert.deepEqual(
      sent.slice(1).map((message) => message.tools_state_id),
      [first.functionsStateId, first.functionsStateId],
    );
  });

  it('uploads a picture once however many times the conversation is sent, and attaches it', async () => {
    const uploads: string[] = [];
    const pictures = new FileUploads(async (bytes, options) => {
      uploads.push(options.filename);
      return t.client.uploadFile(bytes, options);
    });
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    for (let round = 0; round < 2; round++) {
      const conversation = toServiceConversation(
        [
          {
            role: 'user',
            parts: [
              { kind: 'text', text: 'What is on it?' },
              { kind: 'file', file: pictureFromBytes(png, 'image/png') },
            ],
          },
        ],
        new FunctionNames(),
      );
      await pictures.attach(conversation);
      assert.equal(conversation.messages[0].attachments?.length, 1);
      const reply = await collectReply(t.client.chatStream({ model: 'GigaChat-2-Max', messages: conversation.messages }));
      assert.ok(reply.content.length > 0);
    }
    assert.deepEqual(uploads, ['picture.png']);
  });
});
