// A small MCP server over stdio (newline-delimited JSON-RPC, as the protocol's stdio transport is),
// started by VS Code from a workspace's .vscode/mcp.json in 12-vscode-chat. One tool: a fact about
// otters, with a marker the test looks for in what the model was sent back.
'use strict';

const readline = require('node:readline');

const TOOL = {
  name: 'otter_fact',
  description: 'A true fact about otters on a topic.',
  inputSchema: { type: 'object', properties: { topic: { type: 'string', description: 'What the fact is about' } }, required: ['topic'] },
};

const answer = (id, result) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`);
const refuse = (id, message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32601, message } })}\n`);

const handlers = {
  initialize: (params) => ({
    protocolVersion: params?.protocolVersion ?? '2025-06-18',
    capabilities: { tools: {} },
    serverInfo: { name: 'otters', version: '1.0.0' },
  }),
  ping: () => ({}),
  'tools/list': () => ({ tools: [TOOL] }),
  'tools/call': (params) => ({
    content: [
      { type: 'text', text: `otter-fact-7: about ${String(params?.arguments?.topic ?? 'otters')}, sea otters keep a favourite stone in a pouch of skin.` },
    ],
  }),
};

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  if (message.id === undefined) return; // a notification (initialized, cancelled…): nothing to answer
  const handler = handlers[message.method];
  if (handler) answer(message.id, handler(message.params));
  else refuse(message.id, `no method ${message.method}`);
});
