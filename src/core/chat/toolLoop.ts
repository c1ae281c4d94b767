import type { ConversationMessage } from '../conversation/turns';
import { boundedText } from '../agent/boundedText';
import { turnMessages, type ToolRound, type TurnRecord } from '../agent/turnRecord';

/** Tool calls per question before the agent stops and asks whether to go on. */
export const MAX_TOOL_CALLS = 15;

/** A call the model asked for. */
export interface ToolCall {
  callId: string;
  toolName: string;
  input: Record<string, unknown>;
}

/** What running a call gave: the text the model reads, and the file it changed, if it changed one. */
export interface ToolOutcome {
  text: string;
  changed?: string;
}

export interface AgentLoop {
  /** One round of the model: streams its text (through the caller), resolves to its text and the calls it asked for. */
  respond(messages: readonly ConversationMessage[]): Promise<{ text: string; calls: ToolCall[] }>;
  /** The tools the model was offered, by name: a call of any other is refused, never run. */
  offered: ReadonlySet<string>;
  /** Runs an offered call; a failure or the user's refusal is its outcome, for the model to work with. */
  run(call: ToolCall): Promise<ToolOutcome>;
  /** Whether the user stopped the turn. */
  cancelled(): boolean;
  /** Calls at most (default MAX_TOOL_CALLS). */
  maxCalls?: number;
}

export interface AgentOutcome {
  /** The call limit ended the run before the model answered. */
  stoppedAtLimit: boolean;
}

/**
 * The agent's loop: the model answers or asks for tools; each call is run and its result goes back,
 * until the model answers in text, the user stops it, or the call limit is reached. Everything the
 * turn does is written to `record` as it happens, so a turn that fails half-way (the service down
 * after an edit was applied) still tells the next question what was done. A name the model was not
 * offered (a model steered by text it read may make one up, or name another extension's tool) is
 * answered with a refusal and never run. Results are bounded (see boundedText): one huge file or
 * log must not fill the model's context.
 */
export async function runAgentLoop(conversation: readonly ConversationMessage[], loop: AgentLoop, record: TurnRecord): Promise<AgentOutcome> {
  const maxCalls = loop.maxCalls ?? MAX_TOOL_CALLS;
  const messages = [...conversation];
  let made = 0;
  while (!loop.cancelled()) {
    const { text, calls } = await loop.respond(messages);
    if (calls.length === 0) {
      record.answer = text;
      return { stoppedAtLimit: false };
    }
    const round: ToolRound = { text, calls: [] };
    record.rounds.push(round);
    for (const call of calls) {
      if (loop.cancelled() || made >= maxCalls) break;
      made++;
      const outcome = loop.offered.has(call.toolName) ? await loop.run(call) : { text: notOffered(call.toolName, loop.offered) };
      round.calls.push({ ...call, result: boundedText(outcome.text).text, ...(outcome.changed ? { changed: outcome.changed } : {}) });
    }
    messages.push(...turnMessages({ rounds: [round], answer: '' }));
    if (made >= maxCalls) return { stoppedAtLimit: true };
  }
  return { stoppedAtLimit: false };
}

/** What the model reads for a call of a tool it was not given. */
export function notOffered(name: string, offered: ReadonlySet<string>): string {
  return `There is no tool named "${name}" here, so nothing was run. Use only the tools offered: ${[...offered].join(', ')}.`;
}
