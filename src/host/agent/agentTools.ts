import * as vscode from 'vscode';
import { chooseAgentTools } from '../../core';
import { OWN_TOOLS } from '../chatNames';

/**
 * VS Code's own tools the agent is offered when they are there (they come with VS Code, not with
 * Copilot): running tests, tasks and terminal commands, each asking the user as VS Code decides.
 */
const VS_CODE_TOOLS = ['runTests', 'run_in_terminal', 'get_terminal_output', 'run_task', 'get_task_output'];

/** The tools `@gigachat` offers the model for this request (core/agent/toolChoice.ts says which). */
export function agentTools(request: vscode.ChatRequest): vscode.LanguageModelChatTool[] {
  return chooseAgentTools(vscode.lm.tools, {
    always: [...Object.values(OWN_TOOLS), ...VS_CODE_TOOLS],
    referenced: request.toolReferences.map((reference) => reference.name),
    switchedOn: toolPicker(request),
  }).map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }));
}

/**
 * The chat's tool picker, by tool name. VS Code 1.10x passes it as `request.tools` (a map from the
 * tool to whether it is on) without declaring it in its stable API, so it is read defensively.
 */
function toolPicker(request: vscode.ChatRequest): Map<string, boolean> | undefined {
  const tools: unknown = (request as { tools?: unknown }).tools;
  if (!(tools instanceof Map)) return undefined;
  const byName = new Map<string, boolean>();
  for (const [tool, on] of tools) {
    const name: unknown = (tool as { name?: unknown } | undefined)?.name;
    if (typeof name === 'string' && typeof on === 'boolean') byName.set(name, on);
  }
  return byName;
}
