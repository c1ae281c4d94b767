import type { ChatReply } from '../service/chatReply';
import type { FunctionNames } from '../service/functionNames';
import type { ChatMessage } from '../service/schemas';

/** Times the model is told it called a function it was not offered, before its call is dropped. */
export const MAX_CORRECTIONS = 2;

/** A reply whose call, if any, names a function the request offered, with the tool's own name. */
export interface OfferedReply {
  reply: ChatReply;
  /** The tool the call names, as its owner knows it; undefined when the reply is text. */
  toolName?: string;
  /** Function names the model called without being offered them, in order (none were run). */
  dropped: string[];
}

/**
 * Asks for a reply, and when the model calls a function the request never offered (a model steered
 * by text it read may name one it saw there, or make one up), does not pass that call on: the model
 * is told that no such function exists here and asked again, up to MAX_CORRECTIONS times; after that
 * the reply stands without its call. Only a name this request gave out comes back as a tool call.
 *
 * @param ask makes one request for the given messages (streaming its text to the caller) and resolves to the reply
 * @param offered the service names of the functions the request offers
 */
export async function replyWithOfferedCalls(
  ask: (messages: ChatMessage[]) => Promise<ChatReply>,
  messages: readonly ChatMessage[],
  names: FunctionNames,
  offered: readonly string[],
): Promise<OfferedReply> {
  const dropped: string[] = [];
  let conversation = [...messages];
  for (;;) {
    const reply = await ask(conversation);
    const call = reply.functionCall;
    if (!call) return { reply, dropped };
    const toolName = names.toolName(call.name);
    if (toolName !== undefined && offered.includes(call.name)) return { reply, toolName, dropped };
    dropped.push(call.name);
    if (dropped.length > MAX_CORRECTIONS) return { reply: { ...reply, functionCall: undefined, functionsStateId: undefined }, dropped };
    conversation = [
      ...conversation,
      ...(reply.content ? [{ role: 'assistant' as const, content: reply.content }] : []),
      { role: 'user', content: unofferedCorrection(call.name, offered) },
    ];
  }
}

/**
 * What the model is told after calling a function it was not offered. The offered ones are not
 * named: the request lists them, and a name in a user message reads as a request to call it.
 */
export function unofferedCorrection(name: string, offered: readonly string[]): string {
  const choices = offered.length > 0 ? 'Call only the functions this request offers, or answer in text.' : 'Answer in text.';
  return `You called the function "${name}", which is not offered here, so nothing was run. ${choices}`;
}
