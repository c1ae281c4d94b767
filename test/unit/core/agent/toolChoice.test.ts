import * as assert from 'node:assert/strict';
import { chooseAgentTools, MCP_TAG } from '../../../../src/core';

const tool = (name: string, ...tags: string[]) => ({ name, tags });
const names = (tools: { name: string }[]) => tools.map((t) => t.name);

describe("@gigachat's tools: which of VS Code's tools the model is offered", () => {
  const available = [
    tool('gigachat_readFile'),
    tool('run_in_terminal'),
    tool('mcp_otters_fact', MCP_TAG),
    tool('mcp_otters_delete', MCP_TAG),
    tool('otherExtension_deploy'),
    tool('vscode_fetchWebPage', 'web'),
  ];
  const always = ['gigachat_readFile', 'run_in_terminal', 'runTests'];

  it("offers its own tools, VS Code's terminal and every started MCP server's tools, not other extensions'", () => {
    assert.deepEqual(names(chooseAgentTools(available, { always, referenced: [] })), [
      'gigachat_readFile',
      'run_in_terminal',
      'mcp_otters_fact',
      'mcp_otters_delete',
    ]);
  });

  it("leaves out an MCP tool the chat's tool picker switched off, and keeps one it left on", () => {
    const switchedOn = new Map([
      ['mcp_otters_delete', false],
      ['mcp_otters_fact', true],
    ]);
    assert.deepEqual(names(chooseAgentTools(available, { always, referenced: [], switchedOn })), ['gigachat_readFile', 'run_in_terminal', 'mcp_otters_fact']);
  });

  it('a tool switched off in the picker is not offered even among the usual ones; one named in the message always is', () => {
    const switchedOn = new Map([
      ['run_in_terminal', false],
      ['otherExtension_deploy', false],
    ]);
    const chosen = chooseAgentTools(available, { always, referenced: ['otherExtension_deploy'], switchedOn });
    assert.deepEqual(names(chosen), ['gigachat_readFile', 'mcp_otters_fact', 'mcp_otters_delete', 'otherExtension_deploy']);
  });

  it('offers nothing that is not there: a usual tool VS Code lacks is simply absent', () => {
    assert.deepEqual(names(chooseAgentTools([tool('runTests')], { always, referenced: ['missing'] })), ['runTests']);
  });
});
