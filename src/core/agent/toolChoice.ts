/** A tool as VS Code lists it (`vscode.lm.tools`): its name and the tags it declares. */
export interface ListedTool {
  readonly name: string;
  readonly tags: readonly string[];
}

export interface ToolChoice {
  /** Offered whenever they are there: `@gigachat`'s own and VS Code's tests, tasks and terminal. */
  always: readonly string[];
  /** The tools the user named in the message (`#tool`): offered whatever they are. */
  referenced: readonly string[];
  /**
   * The chat's tool picker, where VS Code passes it (`ChatRequest.tools`, by name): a tool switched
   * off there is never offered. Absent when VS Code does not say.
   */
  switchedOn?: ReadonlyMap<string, boolean>;
}

/** VS Code tags every tool of an MCP server so (its `McpLanguageModelToolContribution`). */
export const MCP_TAG = 'mcp';

/**
 * The tools `@gigachat` offers the model. Beside its own and those the user named, every tool of
 * the MCP servers the user started (they are the user's choice, made in `mcp.json`), unless the
 * chat's tool picker switched it off. Other extensions' tools stay out: each description takes room
 * in the request, and they may expect their own chat session.
 */
export function chooseAgentTools<T extends ListedTool>(available: readonly T[], choice: ToolChoice): T[] {
  const always = new Set(choice.always);
  const referenced = new Set(choice.referenced);
  return available.filter((tool) => {
    if (referenced.has(tool.name)) return true;
    if (choice.switchedOn?.get(tool.name) === false) return false;
    return always.has(tool.name) || tool.tags.includes(MCP_TAG);
  });
}
