import * as vscode from 'vscode';
import { isRecord, pictureFromBytes, type ConversationMessage, type ConversationPart, type ToolDescription } from '../../core';

/**
 * Reads VS Code's request messages into the core's plain parts (core/conversation/serviceConversation.ts turns
 * them into the service's messages). Parts are recognised by shape as well as by class: messages
 * come from other extensions, and a part this extension does not know is left out.
 */
export function readConversation(messages: readonly vscode.LanguageModelChatRequestMessage[]): ConversationMessage[] {
  return messages.map((message) => ({
    role: roleOf(message.role),
    parts: message.content.flatMap((part) => [readPart(part) ?? [], resultPictures(part)].flat()),
  }));
}

/**
 * The pictures a tool's result carries (VS Code's view-image tool returns one): a function's
 * result is text on the service, so each goes with the message after the results as an attached
 * file, and the result says so.
 */
function resultPictures(part: unknown): ConversationPart[] {
  if (!(part instanceof vscode.LanguageModelToolResultPart || isToolResult(part))) return [];
  const pictures = part.content.filter(isPicture);
  if (pictures.length === 0) return [];
  return [
    { kind: 'text', text: 'The pictures the tool returned are attached.' },
    ...pictures.map((picture): ConversationPart => ({ kind: 'file', file: pictureFromBytes(picture.data, picture.mimeType) })),
  ];
}

export function readTools(tools: readonly vscode.LanguageModelChatTool[] | undefined): ToolDescription[] {
  return (tools ?? []).map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }));
}

/** VS Code's proposed System role is 3: its text is sent as the service's system message. */
const SYSTEM_ROLE = 3;

function roleOf(role: vscode.LanguageModelChatMessageRole): ConversationMessage['role'] {
  if (role === vscode.LanguageModelChatMessageRole.Assistant) return 'assistant';
  return (role as number) === SYSTEM_ROLE ? 'system' : 'user';
}

function readPart(part: unknown): ConversationPart | undefined {
  if (part instanceof vscode.LanguageModelTextPart) return { kind: 'text', text: part.value };
  if (part instanceof vscode.LanguageModelToolCallPart || isToolCall(part))
    return { kind: 'toolCall', callId: part.callId, toolName: part.name, input: isRecord(part.input) ? part.input : {} };
  if (part instanceof vscode.LanguageModelToolResultPart || isToolResult(part))
    return { kind: 'toolResult', callId: part.callId, text: resultText(part.content) };
  if (isPicture(part)) return { kind: 'file', file: pictureFromBytes(part.data, part.mimeType) };
  if (isRecord(part) && typeof part.value === 'string') return { kind: 'text', text: part.value };
  return undefined;
}

/** A tool's result as text: its text parts, and anything else (prompt-tsx parts, JSON data) as JSON. */
export function resultText(content: readonly unknown[]): string {
  return content
    .map((item) => {
      if (item instanceof vscode.LanguageModelTextPart) return item.value;
      if (isPicture(item)) return `[picture, ${item.mimeType}: attached]`;
      if (isData(item) && /json|text/.test(item.mimeType)) return new TextDecoder().decode(item.data);
      // Other bytes (an archive, audio) would reach the model as a list of numbers.
      if (isData(item)) return `[${item.mimeType}, ${item.data.byteLength} bytes: not sent]`;
      if (isRecord(item) && typeof item.value === 'string') return item.value;
      return JSON.stringify(isRecord(item) && 'value' in item ? item.value : item) ?? '';
    })
    .join('');
}

function isToolCall(part: unknown): part is { callId: string; name: string; input: unknown } {
  return isRecord(part) && typeof part.callId === 'string' && typeof part.name === 'string' && 'input' in part;
}

function isToolResult(part: unknown): part is { callId: string; content: unknown[] } {
  return isRecord(part) && typeof part.callId === 'string' && Array.isArray(part.content);
}

/** `LanguageModelDataPart` (VS Code 1.105+): bytes with a media type. */
function isData(part: unknown): part is { mimeType: string; data: Uint8Array } {
  return isRecord(part) && typeof part.mimeType === 'string' && part.data instanceof Uint8Array;
}

function isPicture(part: unknown): part is { mimeType: string; data: Uint8Array } {
  return isData(part) && part.mimeType.startsWith('image/');
}
