import type { TurnRecord } from '../agent/turnRecord';
import type { ConversationMessage } from '../conversation/turns';
import type { ToolDescription } from '../service/serviceFunctions';
import { askModel, type ModelRound, type RoundListener, type RoundRequest, type RoundServices } from './modelRound';
import { runAgentLoop, type AgentOutcome, type ToolCall, type ToolOutcome } from './toolLoop';

/**
 * The tools a turn may use, as the engine sees them: whoever holds them (VS Code's `vscode.lm`
 * tools for `@gigachat`) lists them and runs a call, asking the user where a tool wants it.
 */
export interface ChatTools {
  /** The tools offered to the model this turn. */
  list(): readonly ToolDescription[];
  /** Runs a call of a listed tool; a failure or the user's refusal is its outcome, for the model. Rejects only when the turn is stopped. */
  run(call: ToolCall): Promise<ToolOutcome>;
}

/** Hears a turn with tools: each round's text and thinking as they stream, then the round's end, before its calls run. */
export interface ToolTurnListener extends RoundListener {
  onRoundEnd(round: ModelRound): void;
}

export interface ToolTurn {
  conversation: readonly ConversationMessage[];
  /** How each round is asked; the tools come from `tools`. */
  request: Omit<RoundRequest, 'tools'>;
  tools: ChatTools;
  services: RoundServices;
  listener: ToolTurnListener;
  /** Stops the turn: no round and no call starts after it aborts. */
  signal: AbortSignal;
}

/**
 * A turn that may use tools: rounds of the model (modelRound.ts) in the tool loop (toolLoop.ts),
 * each call run through `tools`, until the model answers in text, the turn is stopped, or the call
 * limit is reached. `record` holds what the turn did, also when this throws.
 */
export function answerWithTools(turn: ToolTurn, record: TurnRecord): Promise<AgentOutcome> {
  const { request, tools, services, listener, signal } = turn;
  const offered = tools.list();
  return runAgentLoop(
    turn.conversation,
    {
      offered: new Set(offered.map((tool) => tool.name)),
      cancelled: () => signal.aborted,
      respond: async (messages) => {
        const round = await askModel(messages, { ...request, tools: offered }, services, listener, signal);
        listener.onRoundEnd(round);
        return round;
      },
      run: (call) => tools.run(call),
    },
    record,
  );
}
