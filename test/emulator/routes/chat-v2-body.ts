// The current contract's request (POST /api/v2/chat/completions) read into the previous
// contract's body, which chat-request.ts validates further: one model answers both. What only the
// current contract says travels in fields of that body the previous one never sends
// (`built_in_tools`, `reasoning_effort`), or says at its top level (`response_format`, which the
// previous contract also took in recorded exchanges). Checked here, with the service's 422 details, as the
// recorded exchanges show it: content as a list of parts; a function's result in a `tool`
// message carrying the `tools_state_id` its call was sent back with; tools as one-key objects.
import { isRecord } from '../http';

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);
export const BUILT_IN_TOOLS = ['web_search', 'url_content_extraction', 'image_generate', 'code_interpreter', 'model_3d_generate'];

type Problem = { problem: string };

function messageOf(item: unknown, previous: Record<string, unknown> | undefined): Record<string, unknown> | Problem {
  if (!isRecord(item) || typeof item.role !== 'string' || !ROLES.has(item.role))
    return { problem: 'message role must be one of system, user, assistant, tool' };
  if (!Array.isArray(item.content)) return { problem: 'message content must be a list of parts' };
  const stateId = item.tools_state_id;
  if (stateId !== undefined && typeof stateId !== 'string') return { problem: 'tools_state_id must be a string' };
  const texts: string[] = [];
  const files: string[] = [];
  const out: Record<string, unknown> = { role: item.role === 'tool' ? 'function' : item.role };
  for (const part of item.content) {
    if (!isRecord(part)) return { problem: 'a content part must be an object' };
    if (typeof part.text === 'string') texts.push(part.text);
    if (Array.isArray(part.files)) {
      for (const file of part.files) {
        if (!isRecord(file) || typeof file.id !== 'string') return { problem: 'files must be a list of {id}' };
        files.push(file.id);
      }
    }
    if (part.function_call !== undefined) out.function_call = part.function_call;
    if (part.function_result !== undefined) {
      const result = part.function_result;
      if (item.role !== 'tool' || !isRecord(result) || typeof result.name !== 'string')
        return { problem: 'function_result must be in a tool message, with a name' };
      out.name = result.name;
      texts.push(JSON.stringify(result.result ?? null));
    }
  }
  // The state id the service gave with a call goes back with the call and with its result.
  if (item.role === 'tool' && previous?.tools_state_id !== undefined && stateId !== previous.tools_state_id) {
    return { problem: 'a tool message must carry the tools_state_id of the call it answers' };
  }
  out.content = texts.join('');
  if (files.length > 0) out.attachments = files;
  if (typeof stateId === 'string') out.tools_state_id = stateId;
  return out;
}

function toolsOf(value: unknown): { functions?: unknown; builtIn: string[] } | Problem {
  if (value === undefined) return { builtIn: [] };
  if (!Array.isArray(value)) return { problem: 'tools must be a list' };
  let functions: unknown;
  const builtIn: string[] = [];
  for (const tool of value) {
    const keys = isRecord(tool) ? Object.keys(tool) : [];
    if (!isRecord(tool) || keys.length !== 1) return { problem: 'each tool must be an object with one key' };
    if (keys[0] === 'functions') {
      const specifications = isRecord(tool.functions) ? tool.functions.specifications : undefined;
      if (!Array.isArray(specifications)) return { problem: 'functions.specifications must be a list' };
      functions = specifications;
    } else if (BUILT_IN_TOOLS.includes(keys[0])) builtIn.push(keys[0]);
    else return { problem: `unknown tool '${keys[0]}'` };
  }
  return { functions, builtIn };
}

function functionCallOf(config: unknown): unknown {
  if (!isRecord(config)) return undefined;
  if (config.mode === 'none') return 'none';
  if (config.mode === 'forced' && typeof config.function_name === 'string') return { name: config.function_name };
  if (config.mode === 'forced' && config.tool_name === 'image_generate') return { name: 'text2image' };
  return 'auto';
}

/** The previous contract's body for a current-contract request, or the 422 detail of what is wrong. */
export function v1BodyOf(data: Record<string, unknown>): Record<string, unknown> | Problem {
  if (!Array.isArray(data.messages)) return { problem: 'messages must be a non-empty array' };
  const messages: Record<string, unknown>[] = [];
  for (const item of data.messages) {
    const message = messageOf(item, messages.at(-1));
    if ('problem' in message) return message;
    messages.push(message);
  }
  const tools = toolsOf(data.tools);
  if ('problem' in tools) return tools;
  const config = isRecord(data.tool_config) ? data.tool_config : {};
  if (config.mode === 'forced' && typeof config.tool_name === 'string' && !tools.builtIn.includes(config.tool_name))
    return { problem: `tool_config.tool_name '${config.tool_name}' is not among the tools` };
  const options = isRecord(data.model_options) ? data.model_options : {};
  const reasoning = isRecord(options.reasoning) ? options.reasoning.effort : undefined;
  return {
    model: data.model,
    messages,
    stream: data.stream,
    max_tokens: options.max_tokens,
    functions: tools.functions,
    function_call: functionCallOf(data.tool_config),
    built_in_tools: tools.builtIn,
    reasoning_effort: reasoning,
    unnormalized_history: options.unnormalized_history === true,
    ranker_options: data.ranker_options,
    response_format: options.response_format,
  };
}
