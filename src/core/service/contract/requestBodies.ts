import type { BuiltInTool, ChatMessage, ChatRequest } from '../schemas';
import type { FunctionCallMode } from '../serviceFunctions';

/**
 * The current contract's request body (`v2/chat/completions`) for a request the extension wrote:
 * messages as lists of content parts, generation settings under `model_options`, functions and
 * the service's own tools under `tools`, the mode under `tool_config`.
 */
export function toV2Body(request: ChatRequest, stream: boolean): Record<string, unknown> {
  const roundTrip = request.messages.some((message) => message.role === 'function' || message.function_call);
  const modelOptions = definedOnly({
    temperature: request.temperature,
    top_p: request.top_p,
    max_tokens: request.max_tokens,
    repetition_penalty: request.repetition_penalty,
    update_interval: request.update_interval,
    reasoning: request.reasoningEffort ? { effort: request.reasoningEffort } : undefined,
    response_format: request.responseFormat,
    // By default the service may merge neighbouring messages and turn a lone system message into
    // a user one: an agent's transcript must reach the model as it happened.
    unnormalized_history: roundTrip ? true : undefined,
  });
  // The previous contract's built-in drawing function, forced by name, is the picture tool here.
  const drawing = typeof request.function_call === 'object' && request.function_call.name === PICTURE_FUNCTION;
  const builtIn = new Set([...(request.builtInTools ?? []), ...(drawing ? (['image_generate'] as const) : [])]);
  const tools = [
    ...(request.functions?.length ? [{ functions: { specifications: request.functions } }] : []),
    ...[...builtIn].map((tool) => (tool === 'web_search' ? { web_search: { type: 'actual_info_web_search' } } : { [tool]: {} })),
  ];
  return definedOnly({
    model: request.model,
    messages: withResultStates(request.messages).map(toV2Message),
    stream,
    model_options: Object.keys(modelOptions).length > 0 ? modelOptions : undefined,
    tools: tools.length > 0 ? tools : undefined,
    tool_config: tools.length > 0 ? toolConfig(request.function_call, webTool(request, builtIn)) : undefined,
    // An editor offers dozens of tools; the service's ranker keeps the few that fit the question.
    ranker_options: (request.functions?.length ?? 0) > RANKED_FROM ? { enabled: true, top_n: RANKED_FROM } : undefined,
  });
}

/** More functions than this, and the service's ranker picks this many for the model to see. */
export const RANKED_FROM = 12;

/**
 * A function's result carries the state id of the call it answers, as the service expects on the
 * current contract (the previous one had it on the call only).
 */
function withResultStates(messages: readonly ChatMessage[]): ChatMessage[] {
  let callState: string | undefined;
  return messages.map((message) => {
    if (message.function_call) callState = message.functions_state_id;
    if (message.role !== 'function' || message.functions_state_id || !callState) return message;
    return { ...message, functions_state_id: callState };
  });
}

function toV2Message(message: ChatMessage): Record<string, unknown> {
  const stateId = message.functions_state_id ? { tools_state_id: message.functions_state_id } : {};
  if (message.role === 'function') {
    return { role: 'tool', ...stateId, content: [{ function_result: { name: message.name ?? '', result: resultValue(message.content) } }] };
  }
  const content: Record<string, unknown>[] = [];
  if (message.content) content.push({ text: message.content });
  if (message.attachments?.length) content.push({ files: message.attachments.map((id) => ({ id })) });
  if (message.function_call) content.push({ function_call: { name: message.function_call.name, arguments: message.function_call.arguments ?? {} } });
  if (content.length === 0) content.push({ text: '' });
  return { role: message.role, ...stateId, content };
}

/** A function's result goes as JSON; text that is not JSON goes as a string. */
function resultValue(content: string): unknown {
  try {
    return JSON.parse(content) as unknown;
  } catch {
    return content;
  }
}

/** The previous contract's name for the model's own drawing function. */
const PICTURE_FUNCTION = 'text2image';

/**
 * The web tool a question that asked for the web makes the model use: with `auto` it may answer
 * from memory, without a search and without sources. Reading the page the question names wins over
 * searching, as the recorded requests force one tool each. Not where the model has functions of
 * its own to call: forcing a tool would keep it from ever calling them.
 */
function webTool(request: ChatRequest, builtIn: ReadonlySet<BuiltInTool>): BuiltInTool | undefined {
  if (request.functions?.length || (request.function_call !== undefined && request.function_call !== 'auto')) return undefined;
  return (['url_content_extraction', 'web_search'] as const).find((tool) => builtIn.has(tool));
}

function toolConfig(mode: FunctionCallMode | undefined, forcedTool?: BuiltInTool): Record<string, unknown> {
  if (forcedTool) return { mode: 'forced', tool_name: forcedTool };
  if (mode === undefined || mode === 'auto') return { mode: 'auto' };
  if (mode === 'none') return { mode: 'none' };
  if (mode.name === PICTURE_FUNCTION) return { mode: 'forced', tool_name: 'image_generate' };
  return { mode: 'forced', function_name: mode.name };
}

function definedOnly(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/**
 * The previous contract's body: the request as written, without what only the current one says.
 * Structured output goes at the top level, where the production service took it on this contract
 * too (recorded: `response_format` with a JSON schema, answered with JSON that fits it).
 */
export function toV1Body(request: ChatRequest, stream: boolean): Record<string, unknown> {
  const { builtInTools, reasoningEffort, responseFormat, ...v1 } = request;
  // On the previous contract the model draws through its built-in function when calls are `auto`.
  const draws = builtInTools?.includes('image_generate') && v1.function_call === undefined;
  return definedOnly({
    ...v1,
    function_call: draws ? 'auto' : v1.function_call,
    reasoning_effort: reasoningEffort,
    response_format: responseFormat,
    stream,
  });
}
