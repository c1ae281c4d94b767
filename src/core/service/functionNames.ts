/**
 * Tool names as the service accepts function names: letters, digits and `_` only. VS Code tool
 * names carry `-`, `.` or `/` (`vscode-websearch_webSearch`, `mcp.github/get_issue`), so each is
 * mapped to a service name, and back when the model calls one. Two tools that map to the same
 * name (`read-file`, `read.file`) get numbered suffixes, so every call goes back to its own tool.
 */

/** The service does not document a length limit; this keeps names well inside any sensible one. */
const MAX_NAME_LENGTH = 64;

/** The name with every character the service refuses replaced by `_` (never empty). */
export function serviceFunctionName(toolName: string): string {
  const name = toolName.replace(/[^A-Za-z0-9_]/g, '_').slice(0, MAX_NAME_LENGTH);
  return name === '' ? 'tool' : name;
}

export class FunctionNames {
  private readonly toService = new Map<string, string>();
  private readonly toTool = new Map<string, string>();

  /** Names are given in order: on a collision, the first tool keeps the plain name. */
  constructor(toolNames: Iterable<string> = []) {
    for (const toolName of toolNames) this.add(toolName);
  }

  /** The service name of a tool, assigning one on first sight. */
  add(toolName: string): string {
    const known = this.toService.get(toolName);
    if (known !== undefined) return known;
    const base = serviceFunctionName(toolName);
    let name = base;
    for (let n = 2; this.toTool.has(name); n++) {
      const suffix = `_${n}`;
      name = base.slice(0, MAX_NAME_LENGTH - suffix.length) + suffix;
    }
    this.toService.set(toolName, name);
    this.toTool.set(name, toolName);
    return name;
  }

  serviceName(toolName: string): string | undefined {
    return this.toService.get(toolName);
  }

  /** The tool a function call names, or undefined for a name this map never gave out. */
  toolName(serviceName: string): string | undefined {
    return this.toTool.get(serviceName);
  }
}
