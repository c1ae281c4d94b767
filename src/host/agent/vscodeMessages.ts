import * as vscode from 'vscode';
import type { ConversationMessage, ConversationPart } from '../../core';

/**
 * The core's conversation as VS Code's language model messages, for `LanguageModelChat.sendRequest`
 * (the provider reads them back with requestParts.ts). Pictures are not part of an agent's turns.
 */
export function toChatMessages(conversation: readonly ConversationMessage[]): vscode.LanguageModelChatMessage[] {
  return conversation.map((message) => {
    if (message.role !== 'assistant') return vscode.LanguageModelChatMessage.User(message.parts.flatMap(userPart));
    return vscode.LanguageModelChatMessage.Assistant(message.parts.flatMap(assistantPart));
  });
}

function userPart(part: ConversationPart): (vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart)[] {
  if (part.kind === 'text') return [new vscode.LanguageModelTextPart(part.text)];
  if (part.kind === 'toolResult') return [new vscode.LanguageModelToolResultPart(part.callId, [new vscode.LanguageModelTextPart(part.text)])];
  return [];
}

function assistantPart(part: ConversationPart): (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[] {
  if (part.kind === 'text') return [new vscode.LanguageModelTextPart(part.text)];
  if (part.kind === 'toolCall') return [new vscode.LanguageModelToolCallPart(part.callId, part.toolName, part.input)];
  return [];
}

/** A user message of plain text. */
export function userText(text: string): ConversationMessage {
  return { role: 'user', parts: [{ kind: 'text', text }] };
}
