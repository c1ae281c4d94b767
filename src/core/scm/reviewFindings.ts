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

/**
 * What models write for a severity besides the three asked for, lower case: without a schema to
 * keep to (the previous contract), a model grades in its own words, in English or Russian, and a
 * `critical` finding dropped as unreadable is the worst one lost.
 */
const SEVERITY_WORDS: readonly [RegExp, Severity][] = [
  [/^(error|critical|blocker|high|major|severe|fatal|bug|критич|высок|ошибк|серьёзн|серьезн)/, 'error'],
  [/^(warning|warn|medium|moderate|normal|предупрежд|средн)/, 'warning'],
  [/^(info|information|low|minor|trivial|note|hint|suggestion|nit|низк|информац|замечани|незначит)/, 'info'],
];

function severityOf(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const word = value.trim().toLowerCase();
  return SEVERITY_WORDS.find(([pattern]) => pattern.test(word))?.[1] ?? value;
}

/** A line number written as a string (`"12"`), as models do without a schema, read as the number. */
function numberOf(value: unknown): unknown {
  return typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
}

const LineNumber = z.preprocess(numberOf, z.number().int().positive());

export const Finding = z.object({
  path: z.string().min(1),
  line: LineNumber,
  endLine: LineNumber.optional(),
  severity: z.preprocess(severityOf, z.enum(SEVERITIES)),
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
  /** Findings the reply gave that cannot be read even leniently (no file, line or title): dropped, and said. */
  malformed: number;
  kind: ReadingKind;
  /** The reply's text when nothing in it could be read as findings (kind `text`). */
  text?: string;
  /** The reply stopped at its token limit: the findings after the last whole one are lost. */
  cut: boolean;
}

/**
 * The model's reply read as findings (see ReadingKind).
 * @param finishReason why the reply ended: `length` is a review cut at its token limit, whose
 *   JSON does not parse: its whole findings are kept, and the raw JSON is never shown as text.
 */
export function readFindings(reply: string, finishReason?: string | null): ReviewReading {
  const cut = finishReason === 'length';
  const whole = asFindings(parseJson(reply.trim()));
  if (whole) return { ...whole, kind: 'structured', cut };
  for (const candidate of jsonCandidates(reply)) {
    const found = asFindings(parseJson(candidate));
    if (found) return { ...found, kind: 'lenient', cut };
  }
  const salvaged = wholeFindingsOf(reply);
  if (salvaged) return { ...tally(salvaged.map(parseJson)), kind: 'lenient', cut };
  return { findings: [], malformed: 0, kind: 'text', text: reply.trim(), cut };
}

function asFindings(value: unknown): { findings: Finding[]; malformed: number } | undefined {
  const parsed = Findings.safeParse(Array.isArray(value) ? { findings: value } : value);
  return parsed.success ? tally(parsed.data.findings) : undefined;
}

/** The items that read as findings (the first MAX_FINDINGS), and how many do not. */
function tally(items: readonly unknown[]): { findings: Finding[]; malformed: number } {
  const findings: Finding[] = [];
  let malformed = 0;
  for (const item of items) {
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

/**
 * The texts of the whole objects in a findings list whose JSON breaks off (a reply cut at its
 * token limit, or a stray character after the list): undefined when the reply has no such list.
 * One pass over the text, whatever its length.
 */
function wholeFindingsOf(reply: string): string[] | undefined {
  const key = /"findings"\s*:\s*\[/.exec(reply);
  if (!key) return undefined;
  const objects: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let at = key.index + key[0].length; at < reply.length; at++) {
    const char = reply[at];
    if (inString) {
      if (char === '\\') at++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' && depth++ === 0) start = at;
    else if (char === '}' && depth > 0 && --depth === 0) objects.push(reply.slice(start, at + 1));
    else if (char === ']' && depth === 0) break;
  }
  return objects;
}

/** Where JSON may hide in prose: each fenced block (```json or plain), then the text from the first `{` to the last `}`. */
function jsonCandidates(text: string): string[] {
  const blocks = [...text.matchAll(/```[^\n`]*\n([\s\S]*?)```/g)].map((match) => match[1].trim());
  const first = text.indexOf('{');
  const last = text.lastIndexOf('}');
  return first >= 0 && last > first ? [...blocks, text.slice(first, last + 1)] : blocks;
}
