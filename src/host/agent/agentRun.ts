import * as vscode from 'vscode';
import { messageOf, isRecord, runAgentLoop, LinkGuard, type AgentOutcome, type ConversationMessage, type ToolCall, type TurnRecord } from '../../core';
import { commandId } from '../commands';
import { REASONING_OPTION, reasoningOf } from '../lm/reasoningText';
import { resultText } from '../lm/requestParts';
import type { AppliedEdits } from '../tools/appliedEdits';
import type { ChangeQuestion, ChangeReviews } from '../edits/changeReviews';
import { plainLabel } from '../plainLabel';
import { isWorkspaceFileLink } from './answerLinks';
import { toChatMessages } from './vscodeMessages';

export interface AgentRun {
  model: vscode.LanguageModelChat;
  conversation: ConversationMessage[];
  tools: vscode.LanguageModelChatTool[];
  /** Sent first, as the system message (the provider's `system` model option). */
  instructions: string;
  /** Let the model search the web (the provider's `webSearch` model option). */
  webSearch?: boolean;
  stream: vscode.ChatResponseStream;
  /** Lets VS Code show each call in this chat, and ask the user where a tool wants it. */
  toolInvocationToken: vscode.ChatParticipantToolToken;
  token: vscode.CancellationToken;
  /** Where the edit tool says which file a call changed. */
  edits: AppliedEdits;
  /** Where the edit tool says a change waits for the user's answer. */
  changes: Pick<ChangeReviews, 'onDidAsk'>;
}

/**
 * `@gigachat`'s turn in VS Code's Chat, through the core's loop (core/agent/toolLoop.ts): each
 * round goes to the chosen model with `sendRequest`, its text is shown as it streams, with links
 * to anything but the web and the workspace's files made inert (the model is untrusted input), and
 * each call runs through `vscode.lm.invokeTool`. Only the tools offered run. `record` holds what the
 * turn did, also when this throws.
 */
export function runAgent(run: AgentRun, record: TurnRecord): Promise<AgentOutcome> {
  const { model, tools, instructions, stream, token } = run;
  const options = {
    tools,
    justification: vscode.l10n.t('@gigachat answers with GigaChat.'),
    modelOptions: { system: instructions, webSearch: run.webSearch === true, [REASONING_OPTION]: true },
  };
  return runAgentLoop(
    run.conversation,
    {
      offered: new Set(tools.map((tool) => tool.name)),
      cancelled: () => token.isCancellationRequested,
      respond: async (messages) => {
        const response = await model.sendRequest(toChatMessages(messages), options, token);
        const links = new LinkGuard(isWorkspaceFileLink);
        const reasoning = new ThinkingSection(stream);
        let text = '';
        const calls: ToolCall[] = [];
        for await (const part of response.stream) {
          if (part instanceof vscode.LanguageModelTextPart) {
            const thought = reasoningOf(part.value);
            if (thought !== undefined) {
              reasoning.add(thought);
              continue;
            }
            text += part.value;
            show(stream, links.push(part.value));
          } else if (part instanceof vscode.LanguageModelToolCallPart) {
            calls.push({ callId: part.callId, toolName: part.name, input: isRecord(part.input) ? part.input : {} });
          }
        }
        show(stream, links.end());
        reasoning.end();
        if (text && calls.length > 0) stream.markdown('\n\n');
        return { text, calls };
      },
      run: async (call) => ({ text: await invoke(call, run), changed: run.edits.take(call.input) }),
    },
    record,
  );
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

/**
 * A reasoning model's thinking in @gigachat's answer: "Reasoning…" while it thinks, then a button
 * after the answer that opens it (VS Code's stable Chat API can neither show thinking nor fold a
 * section). It stays out of the turn's text: it is not sent back to the model with the next questions.
 */
class ThinkingSection {
  private text = '';

  constructor(private readonly stream: vscode.ChatResponseStream) {}

  add(thought: string): void {
    if (this.text === '') this.stream.progress(vscode.l10n.t('Reasoning…'));
    this.text += thought;
  }

  /** The round ended: the button that shows what was thought in it. */
  end(): void {
    if (this.text.trim() === '') return;
    this.stream.button({ command: commandId('showReasoning'), title: vscode.l10n.t("Show GigaChat's reasoning"), arguments: [this.text.trim()] });
    this.text = '';
  }
}

function show(stream: vscode.ChatResponseStream, text: string): void {
  if (text) stream.markdown(text);
}
