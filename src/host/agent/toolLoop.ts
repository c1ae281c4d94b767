import * as vscode from 'vscode';
import { resultText } from '../lm/requestParts';

/** Tool calls per question before the agent stops and asks whether to go on. */
export const MAX_TOOL_CALLS = 15;

export interface AgentRun {
  model: vscode.LanguageModelChat;
  messages: vscode.LanguageModelChatMessage[];
  tools: vscode.LanguageModelChatTool[];
  /** Sent first, as the system message (the provider's `system` model option). */
  instructions: string;
  stream: vscode.ChatResponseStream;
  /** Lets VS Code show each call in this chat and ask the user before edits and commands. */
  toolInvocationToken: vscode.ChatParticipantToolToken;
  token: vscode.CancellationToken;
}

export interface AgentOutcome {
  /** The tools that ran, in order. */
  toolsRun: string[];
  /** The step limit ended the run before the model answered. */
  stoppedAtLimit: boolean;
}

/**
 * The agent's loop: the model answers or asks for a tool; each call is run through VS Code
 * (`vscode.lm.invokeTool`, which asks the user where the tool wants it) and its result goes back,
 * until the model answers in text, the user stops it, or {@link MAX_TOOL_CALLS} calls were made.
 * GigaChat asks for one tool per reply, so a task of several steps is several rounds.
 */
export async function runAgent(run: AgentRun): Promise<AgentOutcome> {
  const { model, messages, tools, instructions, stream, token } = run;
  const toolsRun: string[] = [];
  while (!token.isCancellationRequested) {
    const options = { tools, justification: vscode.l10n.t('@gigachat answers with GigaChat.'), modelOptions: { system: instructions } };
    const response = await model.sendRequest(messages, options, token);
    let text = '';
    const calls: vscode.LanguageModelToolCallPart[] = [];
    for await (const part of response.stream) {
      if (part instanceof vscode.LanguageModelTextPart) {
        stream.markdown(part.value);
        text += part.value;
      } else if (part instanceof vscode.LanguageModelToolCallPart) {
        calls.push(part);
      }
    }
    if (calls.length === 0) return { toolsRun, stoppedAtLimit: false };
    if (text) stream.markdown('\n\n');
    messages.push(vscode.LanguageModelChatMessage.Assistant([...(text ? [new vscode.LanguageModelTextPart(text)] : []), ...calls]));
    const results: vscode.LanguageModelToolResultPart[] = [];
    for (const call of calls) {
      if (token.isCancellationRequested || toolsRun.length >= MAX_TOOL_CALLS) break;
      toolsRun.push(call.name);
      results.push(new vscode.LanguageModelToolResultPart(call.callId, await invoke(call, run)));
    }
    if (results.length > 0) messages.push(vscode.LanguageModelChatMessage.User(results));
    if (toolsRun.length >= MAX_TOOL_CALLS) return { toolsRun, stoppedAtLimit: true };
  }
  return { toolsRun, stoppedAtLimit: false };
}

/** Runs one call; a failure or a refusal by the user is the call's result, for the model to work with. */
async function invoke(call: vscode.LanguageModelToolCallPart, run: AgentRun): Promise<vscode.LanguageModelTextPart[]> {
  try {
    const result = await vscode.lm.invokeTool(call.name, { input: call.input, toolInvocationToken: run.toolInvocationToken }, run.token);
    return [new vscode.LanguageModelTextPart(resultText(result.content))];
  } catch (error) {
    if (run.token.isCancellationRequested) throw error;
    const message = error instanceof vscode.CancellationError ? 'The user did not allow this tool call.' : `The tool failed: ${(error as Error).message}`;
    return [new vscode.LanguageModelTextPart(message)];
  }
}
