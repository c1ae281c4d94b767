/**
 * What GigaChat's language model provider adds in VS Code's Chat, measured on its core path
 * against the emulator (everything but VS Code's own IPC, which is the same for every provider):
 *   - first text: the time to the first piece of text of a streamed reply, asked directly with the
 *     client, versus asked as the provider asks it (one round of the chat engine, modelRound.ts): a 40-message conversation with tool calls and
 *     results read into the service's messages, 25 tools' schemas reduced to functions, pictures
 *     attached (none here), and the reply read for VS Code (no half media tag). Interleaved, so load
 *     from other processes hits both alike. Target: ≤ 5 ms added (median).
 *   - token counts: a prompt builder counting 20 messages 10 times over (VS Code asks
 *     provideTokenCount that often), through the provider's cached counter versus a request per count.
 *
 *   node out/test/bench/languageModelProvider.js [--requests 200]
 */
import {
  askModel,
  CallStates,
  FunctionNames,
  ServiceClient,
  toServiceConversation,
  TokenCounter,
  FileUploads,
  type ChatMessage,
  type ConversationMessage,
} from '../../src/core';
import { silentLogger } from '../../src/core/base/logger';
import { Emulator } from '../emulator';
import { clientOptionsFor } from '../unit/support/emulatorClient';
import { numberOption } from './options';
import { median, percentile } from './stats';

const requests = numberOption('requests', 200);
const WARM_UP = 20;

/** Tools as VS Code describes them: names with dashes, schemas with keywords the service refuses. */
const TOOLS = Array.from({ length: 25 }, (_, i) => ({
  name: `tool-${i}.run`,
  description: `Tool number ${i}: does one thing to the workspace and says what it did.`,
  inputSchema: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    additionalProperties: false,
    properties: { path: { type: 'string', format: 'uri-reference' }, line: { type: 'integer', minimum: 1, default: 1 }, mode: { enum: ['a', 'b', null] } },
    required: ['path'],
  },
}));

/** A conversation of 40 messages: questions, answers, and tool calls with their results. */
function conversation(question: string): ConversationMessage[] {
  const messages: ConversationMessage[] = [];
  for (let round = 0; round < 10; round++) {
    const callId = `call-${round}`;
    messages.push({ role: 'user', parts: [{ kind: 'text', text: `Question ${round}: ${'what does this code do? '.repeat(20)}` }] });
    messages.push({ role: 'assistant', parts: [{ kind: 'toolCall', callId, toolName: TOOLS[round].name, input: { path: `src/file${round}.ts` } }] });
    messages.push({ role: 'user', parts: [{ kind: 'toolResult', callId, text: 'export const x = 1;\n'.repeat(50) }] });
    messages.push({ role: 'assistant', parts: [{ kind: 'text', text: `Answer ${round}: ${'it exports a constant. '.repeat(20)}` }] });
  }
  messages.push({ role: 'user', parts: [{ kind: 'text', text: question }] });
  return messages;
}

async function firstTextDirect(client: ServiceClient, messages: ChatMessage[]): Promise<number> {
  const started = performance.now();
  for await (const chunk of client.chatStream({ model: 'GigaChat', messages })) {
    if (chunk.choices[0]?.delta.content) return performance.now() - started;
  }
  return performance.now() - started;
}

async function firstTextThroughProvider(client: ServiceClient, pictures: FileUploads, question: string): Promise<number> {
  const started = performance.now();
  let first = 0;
  const controller = new AbortController();
  try {
    const onText = () => {
      if (first === 0) {
        first = performance.now() - started;
        controller.abort(); // the rest of the reply is not part of the figure
      }
    };
    // As the provider asks: one round of the chat engine (a call of a function not offered would be answered and asked again).
    await askModel(
      conversation(question),
      { model: 'GigaChat', instructions: '', tools: TOOLS },
      {
        client,
        texts: { picture: '', sources: '', notOffered: () => '' },
        calls: new CallStates(),
        attach: async (read, signal) => void (await pictures.attach(read, signal)),
      },
      { onText },
      controller.signal,
    );
  } catch {
    // aborted after the first text, as intended
  }
  return first;
}

async function main(): Promise<void> {
  const emulator = await Emulator.start({ streamDelayMs: 0 });
  const client = new ServiceClient(clientOptionsFor(emulator, { proxy: { url: '', noProxy: '*' } }));
  const pictures = new FileUploads((bytes, options) => client.uploadFile(bytes, options));
  try {
    // The same messages on the wire for the direct request, so both ask the service the same.
    const question = 'Tell me about this code';
    const wire = toServiceConversation(conversation(question), new FunctionNames(TOOLS.map((tool) => tool.name))).messages;
    for (let i = 0; i < WARM_UP; i++) {
      await firstTextDirect(client, wire);
      await firstTextThroughProvider(client, pictures, question);
    }
    const direct: number[] = [];
    const provider: number[] = [];
    for (let i = 0; i < requests; i++) {
      if (i % 2 === 0) {
        direct.push(await firstTextDirect(client, wire));
        provider.push(await firstTextThroughProvider(client, pictures, question));
      } else {
        provider.push(await firstTextThroughProvider(client, pictures, question));
        direct.push(await firstTextDirect(client, wire));
      }
    }
    const [d, p] = [median(direct), median(provider)];
    console.log(
      `first text: direct ${d.toFixed(2)} ms · through the provider ${p.toFixed(2)} ms · added ${(p - d).toFixed(2)} ms (target ≤ 5 ms) · ratio ${(p / d).toFixed(2)}×   (medians of ${requests}; p90 ${percentile(direct, 0.9).toFixed(2)} / ${percentile(provider, 0.9).toFixed(2)} ms)`,
    );

    const texts = Array.from({ length: 20 }, (_, i) => `Message ${i}: ${'some words of a prompt '.repeat(30)}`);
    const countRequests = () => emulator.count('tokensCount');
    const before = countRequests();
    let started = performance.now();
    for (let pass = 0; pass < 10; pass++) for (const text of texts) await client.countTokens([text], { model: 'GigaChat' });
    const uncachedMs = performance.now() - started;
    const uncachedRequests = countRequests() - before;
    const counter = new TokenCounter((input, options) => client.countTokens(input, options), silentLogger);
    const middle = countRequests();
    started = performance.now();
    for (let pass = 0; pass < 10; pass++) for (const text of texts) await counter.tokens('GigaChat', text);
    const cachedMs = performance.now() - started;
    const cachedRequests = countRequests() - middle;
    console.log(
      `token counts (20 messages × 10): a request each ${uncachedMs.toFixed(1)} ms, ${uncachedRequests} requests · cached counter ${cachedMs.toFixed(1)} ms, ${cachedRequests} requests · ${(uncachedMs / cachedMs).toFixed(1)}× faster`,
    );
  } finally {
    await client.dispose();
    await emulator.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
