import * as vscode from 'vscode';
import {
  answerWithTools,
  messageOf,
  type AgentOutcome,
  type CallStates,
  type ChatClient,
  type ChatTools,
  type ConversationMessage,
  type ReasoningEffort,
  type ToolCall,
  type TurnRecord,
} from '../../core';
import { abortSignalOf } from '../cancellation';
import { commandId } from '../commands';
import { logRound, reasoningOption, roundTexts } from '../lm/roundTexts';
import { resultText } from '../lm/requestParts';
import type { Log } from '../log';
import type { AppliedEdits } from '../tools/appliedEdits';
import type { ChangeQuestion, ChangeReviews } from '../edits/changeReviews';
import { plainLabel } from '../plainLabel';
import { AgentAnswer } from './agentAnswer';

export interface AgentRun {
  client: Pick<ChatClient, 'chatStream'>;
  /** The GigaChat model that answers. */
  model: string;
  conversation: ConversationMessage[];
  tools: vscode.LanguageModelChatTool[];
  /** Sent first, as the system message. */
  instructions: string;
  /** Let the model search the web. */
  webSearch?: boolean;
  /** The settings' effort for a model that reasons before answering. */
  reasoningEffort?: ReasoningEffort;
  stream: vscode.ChatResponseStream;
  /** Lets VS Code show each call in this chat, and ask the user where a tool wants it. */
  toolInvocationToken: vscode.ChatParticipantToolToken;
  token: vscode.CancellationToken;
  /** The calls given out in this window, for their `functions_state_id` when the history carries them. */
  calls: CallStates;
  /** Where the edit tool says which file a call changed. */
  edits: AppliedEdits;
  /** Where the edit tool says a change waits for the user's answer. */
  changes: Pick<ChangeReviews, 'onDidAsk'>;
  log: Log;
}

/**
 * `@gigachat`'s turn in VS Code's Chat, through the core's chat engine (core/chat/toolTurn.ts):
 * this maps VS Code's tools to the engine's (`vscode.lm.invokeTool`, VS Code asking the user where
 * a tool wants it) and the engine's events to the answer (agentAnswer.ts). Only the tools offered
 * run. `record` holds what the turn did, also when this throws.
 */
export async function runAgent(run: AgentRun, record: TurnRecord): Promise<AgentOutcome> {
  const cancellation = abortSignalOf(run.token);
  try {
    return await answerWithTools(
      {
        conversation: run.conversation,
        request: {
          model: run.model,
          instructions: run.instructions,
          options: reasoningOption(run.model, run.reasoningEffort),
          webSearch: run.webSearch === true,
        },
        tools: vscodeTools(run),
        services: { client: run.client, texts: roundTexts(), calls: run.calls },
        listener: new AgentAnswer(run.stream, (round) => logRound(run.log, '@gigachat', run.model, round)),
        signal: cancellation.signal,
      },
      record,
    );
  } finally {
    cancellation.dispose();
  }
}

/** VS Code's tools chosen for the turn, as the engine's: each call runs through VS Code, and says which file it changed. */
function vscodeTools(run: AgentRun): ChatTools {
  return {
    list: () => run.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
    run: async (call) => ({ text: await invoke(call, run), changed: run.edits.take(call.input) }),
  };
}

/** Runs one call through VS Code; a failure or a refusal by the user is the call's result, for the model to work with. */
async function invoke(call: ToolCall, run: AgentRun): Promise<string> {
  // The change's question is asked in the answer too, not only beside the diff: the chat would only say it is working.
  const asking = run.changes.onDidAsk((question) => offerAnswers(run.stream, question));
  try {
    const result = await vscode.lm.invokeTool(call.toolName, { input: call.input, toolInvocationToken: run.toolInvocationToken }, run.token);
    return resultText(result.content);
  } catch (error) {
    if (run.token.isCancellationRequested) throw error;
    return error instanceof vscode.CancellationError ? 'The user did not allow this tool call.' : `The tool failed: ${messageOf(error)}`;
  } finally {
    asking.dispose();
  }
}

/** Apply and Discard for the change shown in the diff editor, in the answer (a button of an answered change does nothing). */
function offerAnswers(stream: vscode.ChatResponseStream, question: ChangeQuestion): void {
  stream.markdown(`\n\n${vscode.l10n.t('GigaChat wants to change {0}: the diff editor shows the change.', plainLabel(question.label))}\n\n`);
  stream.button({ command: commandId('applyChange'), title: vscode.l10n.t('Apply Change'), arguments: [question.proposal] });
  stream.button({ command: commandId('discardChange'), title: vscode.l10n.t('Discard'), arguments: [question.proposal] });
}
