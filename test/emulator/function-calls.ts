// When the emulated model calls one of the offered functions, deterministically. The last user
// message plans the calls: markers `[call name {"json":"arguments"}]` give name and arguments
// exactly; without markers, every offered function the message names (as a whole word) is called,
// with made-up arguments for its required properties. `function_call: {name}` forces that function
// first. One call per assistant message, as on the service: the plan's next call is the one after
// as many as there are function results since the user spoke, and once the plan is done the model
// answers in text (see functionResultReply). `function_call: "none"` never calls. A call the
// conversation shows was already made and answered in an earlier turn is not made again (asked
// the same thing twice, a model that sees it already did it says so instead of doing it twice).
import type { OfferedFunction } from './function-schema';
import { isRecord, parseJson } from './http';
import type { ChatMessage, ChatRequest } from './routes/chat-request';

export interface FunctionCall {
  name: string;
  arguments: Record<string, unknown>;
}

const MARKER = /\[call ([A-Za-z0-9_]+)(\s+\{|\])/g;

/** The JSON object that starts at `from` and is followed by `]`: the shortest such text that parses. */
function markerArguments(text: string, from: number): unknown {
  for (let end = text.indexOf('}]', from); end !== -1; end = text.indexOf('}]', end + 1)) {
    const value = parseJson(text.slice(from, end + 1));
    if (value !== undefined) return value;
  }
  return undefined;
}

function markedCalls(text: string, functions: OfferedFunction[]): FunctionCall[] {
  return [...text.matchAll(MARKER)]
    .filter((match) => functions.some((offered) => offered.name === match[1]))
    .map((match) => {
      const given = match[2] === ']' ? undefined : markerArguments(text, (match.index ?? 0) + match[0].length - 1);
      return { name: match[1], arguments: isRecord(given) ? given : madeUpArguments(functions, match[1]) };
    });
}

function namedCalls(text: string, functions: OfferedFunction[]): FunctionCall[] {
  return functions
    .map((offered) => ({ offered, at: text.search(new RegExp(`\\b${offered.name}\\b`)) }))
    .filter(({ at }) => at !== -1)
    .sort((a, b) => a.at - b.at)
    .map(({ offered }) => ({ name: offered.name, arguments: madeUpArguments(functions, offered.name) }));
}

const PLACEHOLDERS: Record<string, unknown> = { string: '', number: 0, integer: 0, boolean: false, array: [], object: {} };

/** A value of the right type for every required property (the first enum value where there is one). */
function madeUpArguments(functions: OfferedFunction[], name: string): Record<string, unknown> {
  const offered = functions.find((candidate) => candidate.name === name);
  const entries = (offered?.required ?? []).map((property) => {
    const schema = offered?.properties[property];
    const value = isRecord(schema) && Array.isArray(schema.enum) ? schema.enum[0] : isRecord(schema) ? PLACEHOLDERS[String(schema.type)] : undefined;
    return [property, value ?? ''];
  });
  return Object.fromEntries(entries);
}

/** Everything after the last user message: the calls made and results given for it so far. */
function sinceLastUser(messages: ChatMessage[]): ChatMessage[] {
  const at = messages.map((message) => message.role).lastIndexOf('user');
  return messages.slice(at + 1);
}

/** The calls made and answered before the last user message, as `name arguments` keys. */
function answeredEarlier(messages: ChatMessage[]): Set<string> {
  const at = messages.map((message) => message.role).lastIndexOf('user');
  const earlier = messages.slice(0, Math.max(0, at));
  const keys = new Set<string>();
  earlier.forEach((message, index) => {
    const answered = earlier[index + 1]?.role === 'function';
    if (message.role === 'assistant' && message.functionCall && answered) keys.add(callKey(message.functionCall));
  });
  return keys;
}

function callKey(call: FunctionCall): string {
  return `${call.name} ${JSON.stringify(call.arguments)}`;
}

/** The function the model calls now, or undefined when it answers in text. */
export function nextFunctionCall(request: ChatRequest): FunctionCall | undefined {
  const mode = request.functionCall;
  if (mode === 'none' || request.functions.length === 0) return undefined;
  const lastUser = [...request.messages].reverse().find((message) => message.role === 'user')?.content ?? '';
  const done = sinceLastUser(request.messages).filter((message) => message.role === 'function').length;
  const marked = markedCalls(lastUser, request.functions);
  let plan = marked.length > 0 ? marked : namedCalls(lastUser, request.functions);
  if (typeof mode === 'object' && request.functions.some((offered) => offered.name === mode.name)) {
    // Forced: that function comes first, with the marker's arguments when the message gave some.
    const given = plan.find((call) => call.name === mode.name)?.arguments ?? madeUpArguments(request.functions, mode.name);
    plan = [{ name: mode.name, arguments: { ...given, ...mode.partialArguments } }, ...plan.filter((call) => call.name !== mode.name)];
  }
  const doneBefore = answeredEarlier(request.messages);
  return plan.filter((call) => !doneBefore.has(callKey(call)))[done];
}

/** The function results the model has been given since the user spoke, for its text answer. */
export function functionResults(messages: ChatMessage[]): { name: string; content: string }[] {
  return sinceLastUser(messages).flatMap((message) => (message.role === 'function' ? [{ name: message.name ?? '', content: message.content }] : []));
}
