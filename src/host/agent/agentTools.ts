import * as vscode from 'vscode';
import { OWN_TOOLS } from '../chatNames';

/**
 * VS Code's own tools the agent is offered when they are there (they come with VS Code, not with
 * Copilot): running tests, tasks and terminal commands, each asking the user as VS Code decides.
 */
const VS_CODE_TOOLS = ['runTests', 'run_in_terminal', 'get_terminal_output', 'run_task', 'get_task_output'];

/**
 * The tools `@gigachat` offers the model: its own (read, find, edit with a diff to accept, search),
 * VS Code's for tests, tasks and the terminal, and any tool the user named in the message (`#tool`).
 * A chosen set rather than all of `vscode.lm.tools`: every tool's description takes room in the
 * request, and other extensions' tools may expect their own chat session.
 */
export function agentTools(request: vscode.ChatRequest): vscode.LanguageModelChatTool[] {
  const wanted = new Set<string>([...Object.values(OWN_TOOLS), ...VS_CODE_TOOLS, ...request.toolReferences.map((reference) => reference.name)]);
  return vscode.lm.tools
    .filter((tool) => wanted.has(tool.name))
    .map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }));
}
