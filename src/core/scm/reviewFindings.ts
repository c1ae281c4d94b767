import * as z from 'zod';

/**
 * What a review of a change finds, as the model is asked to give it: on the current contract as
 * structured output (`response_format` with FINDINGS_JSON_SCHEMA), on the previous one as the same
 * JSON written in its text. Either way the reply is untrusted: it is checked with zod here, and a
 * reply that cannot be read as findings is kept whole as one general finding rather than lost.
 */

export const SEVERITIES = ['error', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** The longest title kept: a title is one line in the comment's header and the Problems view. */
const MAX_TITLE = 200;
/** The longest reasoning or suggestion kept: enough for a real explanation or replacement, never a flood. */
const MAX_TEXT = 20_000;
/** More findings than this are not shown: a review that long is noise. */
export const MAX_FINDINGS = 100;

export const Finding = z.object({
  path: z.string().min(1),
  line: z.number().int().positive(),
  endLine: z.number().int().positive().optional(),
  severity: z.enum(SEVERITIES),
  title: z
    .string()
    .min(1)
    .transform((text) => text.slice(0, MAX_TITLE)),
  reasoning: z.string().transform((text) => text.slice(0, MAX_TEXT)),
  /** Replacement text for the lines line..endLine, when the model has one. */
  suggestion: z
    .string()
    .transform((text) => text.slice(0, MAX_TEXT))
    .optional(),
});
export type Finding = z.infer<typeof Finding>;

const Findings = z.object({ findings: z.array(z.unknown()) });

/** The JSON schema sent as `response_format.schema`: the same shape as `Finding`, in the subset the service takes. */
export const FINDINGS_JSON_SCHEMA = {
  type: 'object',
  properties: {
    findings: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'The file, relative to the repository root, as the change names it.' },
          line: { type: 'integer', minimum: 1, description: 'The first line the finding is about, in the file after the change.' },
          endLine: { type: 'integer', minimum: 1, description: 'The last line the finding is about, when it spans several.' },
          severity: { type: 'string', enum: [...SEVERITIES] },
          title: { type: 'string', description: 'The problem in a few words.' },
          reasoning: { type: 'string', description: 'Why it is a problem, and what to do.' },
          suggestion: { type: 'string', description: 'Replacement text for the lines line..endLine that fixes it, when there is one.' },
        },
        required: ['path', 'line', 'severity', 'title', 'reasoning'],
        additionalProperties: false,
      },
    },
  },
  required: ['findings'],
  additionalProperties: false,
} as const;

/**
 * How the reply was read: `structured` as JSON of the schema, `lenient` from JSON found inside
 * text (a fenced block, or the outermost braces), `text` when neither worked and the reply is
 * shown as one general finding.
 */
export type ReadingKind = 'structured' | 'lenient' | 'text';

export interface ReviewReading {
  findings: Finding[];
  /** Findings the reply gave that do not fit the schema (dropped, counted for the log). */
  malformed: number;
  kind: ReadingKind;
  /** The reply's text when nothing in it could be read as findings (kind `text`). */
  text?: string;
}

/** The model's reply read as findings (see ReadingKind). */
export function readFindings(reply: string): ReviewReading {
  const whole = asFindings(parseJson(reply.trim()));
  if (whole) return { ...whole, kind: 'structured' };
  for (const candidate of jsonCandidates(reply)) {
    const found = asFindings(parseJson(candidate));
    if (found) return { ...found, kind: 'lenient' };
  }
  return { findings: [], malformed: 0, kind: 'text', text: reply.trim() };
}

function asFindings(value: unknown): { findings: Finding[]; malformed: number } | undefined {
  const parsed = Findings.safeParse(Array.isArray(value) ? { findings: value } : value);
  if (!parsed.success) return undefined;
  const findings: Finding[] = [];
  let malformed = 0;
  for (const item of parsed.data.findings) {
    const finding = Finding.safeParse(item);
    if (finding.success && findings.length < MAX_FINDINGS) findings.push(finding.data);
    else if (!finding.success) malformed++;
  }
  return { findings, malformed };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Where JSON may hide in prose: each fenced block (```json or plain), then the text from the first `{` to the last `}`. */
function jsonCandidates(text: string): string[] {
  const blocks = [...text.matchAll(/```[^\n`]*\n([\s\S]*?)```/g)].map((match) => match[1].trim());
  const first = text.indexOf('{');
  const last = text.lastIndexOf('}');
  return first >= 0 && last > first ? [...blocks, text.slice(first, last + 1)] : blocks;
}
