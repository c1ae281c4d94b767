/**
 * Reduces an arbitrary JSON Schema (as tools describe their input: `$schema`, `$ref`/`$defs`,
 * `anyOf`, `additionalProperties`, `format`, `default`, …) to the plain subset the service's
 * function calling is known to accept: type, properties, required, description, enum, items.
 * The exact subset the service takes is not documented, and a keyword it refuses fails the whole
 * request with 422, so everything else is dropped. What the model still needs to know of a
 * dropped keyword (a format, a default, a range) is said in the description instead. Every node
 * gets a type (an array its items, an enum values of that type) and descriptions are kept to a
 * length: the service's limits are not documented either, so none is left to chance (the
 * emulator, test/emulator/function-schema.ts, refuses what this does not give).
 */

export interface PlainSchema {
  type?: 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean';
  description?: string;
  properties?: Record<string, PlainSchema>;
  required?: string[];
  enum?: (string | number | boolean)[];
  items?: PlainSchema;
}

type Json = Record<string, unknown>;

const TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean']);

/** Beyond this depth a schema (a recursive `$ref`, say) is cut to its type and description. */
const MAX_DEPTH = 8;

/** The longest description of a function, and of one of its parameters (VS Code's run_in_terminal says 5,700 characters). */
export const MAX_FUNCTION_DESCRIPTION = 1024;
export const MAX_PARAMETER_DESCRIPTION = 512;

/**
 * `text` cut to `max` characters at the end of a sentence or line where there is one in its
 * second half (else at a word), with an ellipsis: the start of a tool's description says what it
 * does, the rest is detail.
 */
export function shortened(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  const sentence = Math.max(head.lastIndexOf('. '), head.lastIndexOf('.\n'), head.lastIndexOf('\n'));
  const word = head.lastIndexOf(' ');
  const end = sentence >= max / 2 ? sentence + 1 : word >= max / 2 ? word : head.length;
  return `${head.slice(0, end).trimEnd()}…`;
}

/** Keywords with no place in the subset whose meaning is still worth telling the model. */
const HINTS: [keyword: string, say: (value: unknown) => string][] = [
  ['format', (value) => `Format: ${String(value)}.`],
  ['pattern', (value) => `Pattern: ${String(value)}.`],
  ['default', (value) => `Default: ${JSON.stringify(value)}.`],
  ['minimum', (value) => `Minimum: ${String(value)}.`],
  ['maximum', (value) => `Maximum: ${String(value)}.`],
  ['minLength', (value) => `At least ${String(value)} characters.`],
  ['maxLength', (value) => `At most ${String(value)} characters.`],
  ['minItems', (value) => `At least ${String(value)} items.`],
  ['maxItems', (value) => `At most ${String(value)} items.`],
];

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` when it is an array (of values of any kind), else undefined. */
function arrayOf(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? (value as unknown[]) : undefined;
}

/** The function's parameters: always an object schema, whatever the tool gave (nothing, `true`, a string schema). */
export function reduceParameters(schema: unknown): PlainSchema & { type: 'object'; properties: Record<string, PlainSchema> } {
  const root = isJson(schema) ? schema : {};
  // No input at all (no schema, `{}`, `true`): a function without parameters.
  if (typeOf(flatten(root, root, 0)) === undefined) return { type: 'object', properties: {} };
  const reduced = reduce(root, root, 0);
  if (reduced.type === 'object' && reduced.properties) {
    // The root's own description (rare) says nothing the function's does not.
    const { description: _description, ...object } = reduced;
    return { ...object, type: 'object', properties: reduced.properties };
  }
  if (reduced.type === 'object') return { type: 'object', properties: {} };
  // A non-object input (rare) becomes one property, so the model can still pass it.
  return { type: 'object', properties: { value: reduced }, required: ['value'] };
}

/** One schema node, reduced. `root` is where local `$ref`s (`#/$defs/…`, `#/definitions/…`) are looked up. */
function reduce(node: Json, root: Json, depth: number): PlainSchema {
  const schema = flatten(node, root, depth);
  const out: PlainSchema = {};
  // A value of any kind: said as text, the kind every model can give.
  const type = typeOf(schema) ?? 'string';
  out.type = type;
  const description = describe(schema);
  if (description) out.description = shortened(description, MAX_PARAMETER_DESCRIPTION);

  const values = enumValues(schema)?.filter((value) => ofType(value, type));
  if (values?.length) out.enum = values;

  if (depth >= MAX_DEPTH) return out;
  if (type === 'object') {
    const properties: Record<string, PlainSchema> = {};
    for (const [name, property] of Object.entries(isJson(schema.properties) ? schema.properties : {})) {
      properties[name] = isJson(property) ? reduce(property, root, depth + 1) : {};
    }
    out.properties = properties;
    const required = Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string' && name in properties) : [];
    if (required.length > 0) out.required = [...new Set(required)];
  }
  if (out.type === 'array') {
    const items = arrayOf(schema.items)?.[0] ?? schema.items ?? arrayOf(schema.prefixItems)?.[0];
    out.items = isJson(items) ? reduce(items, root, depth + 1) : { type: 'string' };
  }
  return out;
}

/** Whether an enum value is of the node's type (a number for an integer or a number). */
function ofType(value: string | number | boolean, type: NonNullable<PlainSchema['type']>): boolean {
  if (type === 'integer') return Number.isInteger(value);
  return typeof value === type;
}

/**
 * The node with `$ref` resolved and `allOf` merged, and of `anyOf`/`oneOf` the first branch that
 * is not just `null` (a nullable value is simply optional here); the node's own description wins.
 */
function flatten(node: Json, root: Json, depth: number): Json {
  let schema = node;
  for (let hops = 0; typeof schema.$ref === 'string' && hops < MAX_DEPTH; hops++) {
    const { $ref, ...rest } = schema;
    schema = { ...resolveRef($ref, root), ...rest };
  }
  if (Array.isArray(schema.allOf) && depth < MAX_DEPTH) {
    const { allOf, ...rest } = schema;
    schema = allOf.filter(isJson).reduce<Json>((merged, part) => mergeObjects(merged, flatten(part, root, depth + 1)), rest);
  }
  const branches = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (branches && depth < MAX_DEPTH) {
    const { anyOf: _anyOf, oneOf: _oneOf, ...rest } = schema;
    const options = branches
      .filter(isJson)
      .map((branch) => flatten(branch, root, depth + 1))
      .filter((branch) => branch.type !== 'null');
    // Branches that are each a value or a few (`const`, `enum`) of one type are one enum.
    const valuesOf = (option: Json) => arrayOf(option.enum) ?? ('const' in option ? [option.const] : undefined);
    const sameEnums = options.length > 1 && options.every((option) => valuesOf(option) && option.type === options[0].type);
    const chosen = sameEnums ? { ...options[0], enum: options.flatMap((option) => valuesOf(option) ?? []) } : (options[0] ?? {});
    schema = { ...chosen, ...rest, description: rest.description ?? chosen.description };
  }
  return schema;
}

function resolveRef(ref: string, root: Json): Json {
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  if (!match) return {}; // a remote or root reference: nothing local to copy, the node's own keywords stay
  const defs = root[match[1]];
  const target = isJson(defs) ? defs[match[2].replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return isJson(target) ? target : {};
}

function mergeObjects(a: Json, b: Json): Json {
  const properties = { ...(isJson(a.properties) ? a.properties : {}), ...(isJson(b.properties) ? b.properties : {}) };
  const required = [...(arrayOf(a.required) ?? []), ...(arrayOf(b.required) ?? [])];
  return { ...b, ...a, properties, required, description: a.description ?? b.description };
}

function typeOf(schema: Json): PlainSchema['type'] {
  const declared = arrayOf(schema.type)?.find((type) => type !== 'null') ?? (Array.isArray(schema.type) ? undefined : schema.type);
  if (typeof declared === 'string' && TYPES.has(declared)) return declared as PlainSchema['type'];
  if (isJson(schema.properties)) return 'object';
  if (schema.items !== undefined || schema.prefixItems !== undefined) return 'array';
  const values = enumValues(schema);
  if (values) return typeof values[0] === 'string' ? 'string' : typeof values[0] === 'boolean' ? 'boolean' : 'number';
  return undefined;
}

/** `enum` (or `const`) without `null` and without values the subset cannot say (objects, arrays). */
function enumValues(schema: Json): (string | number | boolean)[] | undefined {
  const source = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : undefined;
  const values = source?.filter((value): value is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof value));
  return values && values.length > 0 ? [...new Set(values)] : undefined;
}

function describe(schema: Json): string | undefined {
  const own = typeof schema.description === 'string' ? schema.description.trim() : typeof schema.title === 'string' ? schema.title.trim() : '';
  const hints = HINTS.filter(([keyword]) => schema[keyword] !== undefined).map(([keyword, say]) => say(schema[keyword]));
  const text = [own, ...hints, valueMeanings(schema)].filter(Boolean).join(' ');
  return text || undefined;
}

/** VS Code's `enumDescriptions` (what each enum value means), said after the description. */
function valueMeanings(schema: Json): string {
  const values = arrayOf(schema.enum);
  const meanings = arrayOf(schema.enumDescriptions);
  if (!values || !meanings) return '';
  const said = values.flatMap((value, index) =>
    typeof meanings[index] === 'string' && meanings[index] ? [`${String(value)}: ${String(meanings[index])}`] : [],
  );
  return said.length > 0 ? `Values: ${said.join('; ')}.` : '';
}
