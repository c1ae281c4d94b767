import { toServiceConversation, type ServiceConversation } from '../conversation/serviceConversation';
import type { ConversationMessage } from '../conversation/turns';
import type { ServiceClient } from '../service/client';
import { ReplyText, type ReplyTextNotes } from '../service/readableReply';
import type { ChatRequest, Usage } from '../service/schemas';
import { toServiceFunctions, type ToolDescription } from '../service/serviceFunctions';
import { webSearchTools } from '../service/webSources';
import { replyWithOfferedCalls } from './offeredCalls';
import { streamReply } from './replyStream';
import type { ToolCall } from './toolLoop';

/** What a round's text says where text cannot show the reply, and where the model's only reply was a call it may not make. */
export interface RoundTexts extends ReplyTextNotes {
  /** The answer when the model kept calling `name`, a tool it was not offered: nothing was run. */
  notOffered(name: string): string;
}

/** How a round is asked, apart from the conversation. */
export interface RoundRequest {
  model: string;
  /** Sent first, as the system message (with the conversation's own system text after it). */
  instructions: string;
  /** The tools the model is offered: only a call of one of them comes back. */
  tools: readonly ToolDescription[];
  /** `required` forces the call of the one tool there is; with several the model decides (the service has no "any of them"). */
  toolMode?: 'auto' | 'required';
  /** Sampling and reasoning options, as the caller's settings give them. */
  options?: Pick<ChatRequest, 'temperature' | 'top_p' | 'max_tokens' | 'repetition_penalty' | 'reasoningEffort'>;
  /** Let the model search the web, and read the pages the last message names. */
  webSearch?: boolean;
}

/** Hears a round as it streams. */
export interface RoundListener {
  /** More of the answer's text, readable as it is (never half a picture tag or a source marker). */
  onText(text: string): void;
  /** More of a reasoning model's thinking; without this it is not read. */
  onReasoning?(text: string): void;
}

/** What one round of the model gave. */
export interface ModelRound {
  /** All the text shown in the round. */
  text: string;
  /** The call the model made of an offered tool (the service makes at most one per reply). */
  calls: ToolCall[];
  /** Tools the model called without being offered them, in order: none was run (see offeredCalls.ts). */
  dropped: string[];
  usage?: Usage;
  /** How many of the oldest messages were left out for the model's context (0: all went). */
  shortened: number;
}

/** Calls remembered with the service's `functions_state_id`, for when they come back in a conversation. */
const MAX_REMEMBERED_CALLS = 500;

/**
 * The service's `functions_state_id` of the calls given out, by call id: the service wants it back
 * with the call when the conversation carries it on. Bounded: the oldest are forgotten first.
 */
export class CallStates {
  private readonly ids = new Map<string, string>();

  get byCall(): ReadonlyMap<string, string> {
    return this.ids;
  }

  remember(callId: string, stateId: string): void {
    this.ids.set(callId, stateId);
    if (this.ids.size > MAX_REMEMBERED_CALLS) this.ids.delete(this.ids.keys().next().value as string);
  }
}

/** What a round needs from its caller besides the request. */
export interface RoundServices {
  client: Pick<ServiceClient, 'chatStream'>;
  texts: RoundTexts;
  calls: CallStates;
  /** Uploads and attaches the conversation's files (pictures a tool returned); without it none go. */
  attach?(conversation: ServiceConversation, signal: AbortSignal): Promise<void>;
}

/**
 * One round of the model for a conversation that may carry tool calls and their results: the
 * conversation through the one converter to the service's messages, its files attached, the
 * reply streamed as readable text within the model's context (the oldest messages left out when
 * the service finds the request too large), and a call of a tool the request did not offer never
 * passed on (the model is told, see offeredCalls.ts). VS Code's language model provider runs one
 * round per request (VS Code runs the tools); `@gigachat` runs them in the tool loop (toolTurn.ts).
 */
export async function askModel(
  conversation: readonly ConversationMessage[],
  request: RoundRequest,
  services: RoundServices,
  listener: RoundListener,
  signal: AbortSignal,
): Promise<ModelRound> {
  const { functions, names } = toServiceFunctions(request.tools);
  const service = toServiceConversation(conversation, names, services.calls.byCall, request.instructions);
  await services.attach?.(service, signal);
  const asked: ChatRequest = {
    model: request.model,
    messages: service.messages,
    ...request.options,
    ...(request.webSearch ? { builtInTools: webSearchTools(service.messages.at(-1)?.content ?? '') } : {}),
    ...(functions.length > 0
      ? { functions, function_call: request.toolMode === 'required' && functions.length === 1 ? { name: functions[0].name } : 'auto' }
      : {}),
  };
  let text = '';
  let shortened = 0;
  const onText = (piece: string) => {
    text += piece;
    listener.onText(piece);
  };
  const onReasoning = listener.onReasoning?.bind(listener);
  const { reply, toolName, dropped } = await replyWithOfferedCalls(
    async (messages) => {
      const readable = new ReplyText(services.texts, onText, onReasoning);
      const reply = await streamReply(
        services.client,
        { ...asked, messages },
        { signal },
        (dropped) => (shortened = dropped),
        (reply) => readable.grow(reply),
      );
      readable.end(reply);
      return reply;
    },
    service.messages,
    names,
    functions.map((fn) => fn.name),
  );
  const calls: ToolCall[] = [];
  if (reply.functionCall && toolName) {
    const callId = `gigachat-call-${crypto.randomUUID()}`;
    if (reply.functionsStateId) services.calls.remember(callId, reply.functionsStateId);
    calls.push({ callId, toolName, input: reply.functionCall.arguments });
  } else if (dropped.length > 0 && !reply.content) {
    onText(services.texts.notOffered(dropped.at(-1)!));
  }
  return { text, calls, dropped, usage: reply.usage, shortened };
}
