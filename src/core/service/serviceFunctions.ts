/**
 * Function calling's wire shapes (see the contract's section 8) and the conversion of a tool as
 * VS Code describes it (name, description, JSON Schema of its input) to a function the service
 * accepts.
 */
import { FunctionNames, serviceFunctionName } from './functionNames';
import { MAX_FUNCTION_DESCRIPTION, reduceParameters, shortened, type PlainSchema } from './functionSchema';

/** One entry of a chat request's `functions`. */
export interface ServiceFunction {
  /** Letters, digits and `_` only. */
  name: string;
  description: string;
  parameters: PlainSchema & { type: 'object'; properties: Record<string, PlainSchema> };
  few_shot_examples?: { request: string; params: Record<string, unknown> }[];
  return_parameters?: PlainSchema;
}

/** `function_call` of a request: let the model decide, forbid calls, or force one (optionally with some arguments fixed). */
export type FunctionCallMode = 'auto' | 'none' | { name: string; partial_arguments?: Record<string, unknown> };

/** A tool as its owner describes it. */
export interface ToolDescription {
  name: string;
  description: string;
  inputSchema?: unknown;
}

/**
 * One tool as a service function: its name made acceptable and its schema reduced to the plain
 * subset. For several tools use `toServiceFunctions`, whose name map resolves collisions.
 */
export function toServiceFunction(name: string, description: string, jsonSchema: unknown): ServiceFunction {
  // A tool may come without a description (VS Code has such internal ones): its name says something.
  const said = description.trim() || name.replace(/[_\-.]+/g, ' ').trim();
  return { name: serviceFunctionName(name), description: shortened(said, MAX_FUNCTION_DESCRIPTION), parameters: reduceParameters(jsonSchema) };
}

/**
 * Several tools at once, with the name map that turns the model's calls back into tool names
 * (colliding names get distinct service names).
 */
export function toServiceFunctions(tools: readonly ToolDescription[]): { functions: ServiceFunction[]; names: FunctionNames } {
  const names = new FunctionNames();
  const functions = tools.map((tool) => ({ ...toServiceFunction(tool.name, tool.description, tool.inputSchema), name: names.add(tool.name) }));
  return { functions, names };
}
