// Validation of the `functions` a chat request offers, as strict as the service is believed to be.
// The exact JSON Schema subset the service accepts is not documented; the contract lists
// type/properties/required/description/enum/items, so any other keyword ($schema, $ref,
// additionalProperties, format, anyOf, default, …) is refused with 422 here. That way a client whose
// schema reduction misses a keyword fails in its tests, not in front of a user. The same goes for
// what the service's own examples always have and nothing says it can do without: a type on every
// parameter, items on every array, enum values of the parameter's type, names and descriptions of
// bounded length (the bounds are the client's own, src/core/service/functionSchema.ts: the service's are
// not documented).
import { isRecord } from './http';

export interface OfferedFunction {
  name: string;
  description: string;
  /** Names of the properties the function requires, for the emulated model's made-up arguments. */
  required: string[];
  properties: Record<string, unknown>;
}

export const FUNCTION_NAME = /^[A-Za-z0-9_]+$/;
const MAX_NAME = 64;
const MAX_FUNCTION_DESCRIPTION = 1024;
const MAX_PARAMETER_DESCRIPTION = 512;

const SCHEMA_KEYWORDS = new Set(['type', 'properties', 'required', 'description', 'enum', 'items']);
const TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean']);

/** The first problem of a schema, as the 422 message's detail; undefined when it is accepted. */
export function schemaProblem(schema: unknown, path: string, nested = false): string | undefined {
  if (!isRecord(schema)) return `${path} must be an object`;
  for (const key of Object.keys(schema)) {
    if (!SCHEMA_KEYWORDS.has(key)) return `${path}.${key} is not supported`;
  }
  if (schema.type !== undefined && !(typeof schema.type === 'string' && TYPES.has(schema.type))) return `${path}.type is not a valid type`;
  if (nested && schema.type === undefined) return `${path}.type is required`;
  if (schema.type === 'array' && schema.items === undefined) return `${path}.items is required for an array`;
  if (schema.description !== undefined && typeof schema.description !== 'string') return `${path}.description must be a string`;
  if (nested && typeof schema.description === 'string' && schema.description.length > MAX_PARAMETER_DESCRIPTION) {
    return `${path}.description is longer than ${MAX_PARAMETER_DESCRIPTION} characters`;
  }
  if (schema.enum !== undefined && !(Array.isArray(schema.enum) && schema.enum.length > 0)) return `${path}.enum must be a non-empty array`;
  if (Array.isArray(schema.enum) && typeof schema.type === 'string' && !schema.enum.every((value) => ofType(value, schema.type as string))) {
    return `${path}.enum has a value that is not of type ${schema.type}`;
  }
  if (schema.required !== undefined && !(Array.isArray(schema.required) && schema.required.every((item) => typeof item === 'string'))) {
    return `${path}.required must be an array of strings`;
  }
  if (schema.items !== undefined) {
    const problem = schemaProblem(schema.items, `${path}.items`, true);
    if (problem) return problem;
  }
  if (schema.properties !== undefined) {
    if (!isRecord(schema.properties)) return `${path}.properties must be an object`;
    for (const [name, property] of Object.entries(schema.properties)) {
      const problem = schemaProblem(property, `${path}.properties.${name}`, true);
      if (problem) return problem;
    }
  }
  return undefined;
}

function ofType(value: unknown, type: string): boolean {
  if (type === 'integer') return Number.isInteger(value);
  return typeof value === type || (type === 'object' && isRecord(value));
}

function fewShotProblem(examples: unknown, path: string): string | undefined {
  if (!Array.isArray(examples)) return `${path} must be an array`;
  const bad = examples.findIndex((example) => !isRecord(example) || typeof example.request !== 'string' || !isRecord(example.params));
  return bad === -1 ? undefined : `${path}[${bad}] must have a string request and object params`;
}

function functionProblem(item: unknown, path: string): string | undefined {
  if (!isRecord(item)) return `${path} must be an object`;
  if (typeof item.name !== 'string' || !FUNCTION_NAME.test(item.name)) return `${path}.name must consist of letters, digits and _`;
  if (item.name.length > MAX_NAME) return `${path}.name is longer than ${MAX_NAME} characters`;
  if (item.description !== undefined && typeof item.description !== 'string') return `${path}.description must be a string`;
  if (typeof item.description === 'string' && item.description.length > MAX_FUNCTION_DESCRIPTION) {
    return `${path}.description is longer than ${MAX_FUNCTION_DESCRIPTION} characters`;
  }
  const parameters = item.parameters;
  if (!isRecord(parameters) || parameters.type !== 'object') return `${path}.parameters must be a JSON Schema of type object`;
  return (
    schemaProblem(parameters, `${path}.parameters`) ??
    (item.return_parameters === undefined ? undefined : schemaProblem(item.return_parameters, `${path}.return_parameters`)) ??
    (item.few_shot_examples === undefined ? undefined : fewShotProblem(item.few_shot_examples, `${path}.few_shot_examples`))
  );
}

/** The offered functions, or the 422 detail of the first thing wrong with them. */
export function parseFunctions(value: unknown): OfferedFunction[] | { problem: string } {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return { problem: 'functions must be an array' };
  const functions: OfferedFunction[] = [];
  for (const [index, item] of value.entries()) {
    const problem = functionProblem(item, `functions[${index}]`);
    if (problem) return { problem };
    const { name, description, parameters } = item as { name: string; description?: string; parameters: Record<string, unknown> };
    if (functions.some((offered) => offered.name === name)) return { problem: `functions[${index}].name '${name}' is offered twice` };
    functions.push({
      name,
      description: description ?? '',
      required: (parameters.required as string[] | undefined) ?? [],
      properties: (parameters.properties as Record<string, unknown> | undefined) ?? {},
    });
  }
  return functions;
}

/** `function_call`: "auto" | "none" | {name, partial_arguments?}; a forced name must be offered (or the built-in text2image). */
export type FunctionCallMode = 'auto' | 'none' | { name: string; partialArguments: Record<string, unknown> };

export function parseFunctionCall(value: unknown, functions: OfferedFunction[]): FunctionCallMode | { problem: string } | undefined {
  if (value === undefined || value === 'auto' || value === 'none') return value;
  if (!isRecord(value) || typeof value.name !== 'string') return { problem: 'function_call must be "auto", "none" or an object with a name' };
  if (value.partial_arguments !== undefined && !isRecord(value.partial_arguments)) return { problem: 'function_call.partial_arguments must be an object' };
  if (value.name !== 'text2image' && !functions.some((offered) => offered.name === value.name)) {
    return { problem: `function_call names '${value.name}', which is not among the functions` };
  }
  return { name: value.name, partialArguments: value.partial_arguments ?? {} };
}
