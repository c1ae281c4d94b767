// Structured output (`response_format: {type: 'json_schema', schema, strict}`): the reply's text is
// JSON that fits the schema, pretty-printed as the recorded answers are. A review's schema (an
// object with `findings`) gets deterministic findings the tests plant: every line the change adds
// that compares with `== null` (loosely), reported with the file and line the request numbered it
// with, and `=== null` as the suggestion. Any other schema gets the simplest value that fits it.
// Asked for the same findings with no schema (the previous contract, where the request says the
// shape in its text), the model keeps to it loosely, as models do unbound: the JSON in a fenced
// block between sentences, the line number as a string, the severity in its own word (`high`).
import { isRecord } from './http';

/** The review's instructions (src/core/scm/reviewPrompt.ts) ask for this shape in their text. */
export function isFindingsRequest(system: string | undefined): boolean {
  return (system ?? '').includes('Reply with JSON only') && (system ?? '').includes('"findings"');
}

/** The findings as a model without a schema writes them (see the heading). */
export function looseFindingsAnswer(prompt: string): string {
  const findings = plantedFindings(prompt).map((finding) => ({ ...finding, line: String(finding.line), severity: 'high' }));
  return `Here is my review of the change:\n\n\`\`\`json\n${JSON.stringify({ findings }, null, 2)}\n\`\`\`\n\nI hope it helps.`;
}

/** The planted bug: a loose comparison with null (`=== null` and `!== null` are not it). */
const PLANTED = /(^|[^=!])==\s*null\b/;
/** A file's heading and an added line, as the extension's review request writes them. */
const FILE_HEADING = /^--- (.+)$/;
const ADDED_LINE = /^\s*(\d+) \+ (.*)$/;

export function structuredAnswer(schema: unknown, prompt: string): string {
  const value = isRecord(schema) && isRecord(schema.properties) && 'findings' in schema.properties ? { findings: plantedFindings(prompt) } : valueOf(schema);
  return JSON.stringify(value, null, 4);
}

function plantedFindings(prompt: string): Record<string, unknown>[] {
  const findings: Record<string, unknown>[] = [];
  let path: string | undefined;
  for (const line of prompt.split('\n')) {
    const heading = FILE_HEADING.exec(line);
    if (heading) path = heading[1];
    const added = ADDED_LINE.exec(line);
    if (!path || !added || !PLANTED.test(added[2])) continue;
    findings.push({
      path,
      line: Number(added[1]),
      severity: 'warning',
      title: 'Loose comparison with null',
      reasoning: '`== null` is also true for undefined; compare with `=== null` if only null is meant.',
      suggestion: added[2].replace(/==(\s*null)/, '===$1'),
    });
  }
  return findings;
}

/** The simplest value of a JSON schema: required properties only, the first enum value, the minimum number. */
function valueOf(schema: unknown): unknown {
  if (!isRecord(schema)) return null;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  switch (schema.type) {
    case 'object': {
      const properties = isRecord(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : [];
      return Object.fromEntries(required.map((name) => [name, valueOf(properties[name])]));
    }
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 0;
    case 'boolean':
      return false;
    case 'string':
      return 'ok';
    default:
      return null;
  }
}
