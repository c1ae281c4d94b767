/** A fenced markdown code block that code containing a fence of its own cannot close early. Shared by the host's prompts and the view. */
export function fencedCode(code: string, language: string): string {
  const longestRun = Math.max(0, ...(code.match(/`{3,}/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return `${fence}${language}\n${code}\n${fence}`;
}
