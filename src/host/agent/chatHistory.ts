import * as vscode from 'vscode';

/**
 * The earlier turns of this chat with `@gigachat`, as messages for the model: each question, and
 * the text of each answer (tool calls and their results are not kept by VS Code's history; the
 * answer's text says what they found).
 */
export function historyMessages(context: vscode.ChatContext): vscode.LanguageModelChatMessage[] {
  return context.history.flatMap((turn) => {
    if (turn instanceof vscode.ChatRequestTurn) return turn.prompt ? [vscode.LanguageModelChatMessage.User(turn.prompt)] : [];
    const text = turn.response
      .map((part) => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : ''))
      .join('')
      .trim();
    return text ? [vscode.LanguageModelChatMessage.Assistant(text)] : [];
  });
}
