import * as vscode from 'vscode';
import { readTurnRecord, turnMessages, type ConversationMessage } from '../../core';
import type { TurnMetadata } from './turnMetadata';

/**
 * The earlier turns of this chat with `@gigachat`, as messages for the model: each question, and
 * what each answer did: its tool calls with their results (kept in the turn's metadata, also for a
 * turn that failed half-way, so an edit made before a failure is not made again; long results
 * were cut when it was kept, see forHistory) and its text.
 */
export function historyMessages(context: vscode.ChatContext): ConversationMessage[] {
  return context.history.flatMap((turn): ConversationMessage[] => {
    if (turn instanceof vscode.ChatRequestTurn) return turn.prompt ? [userText(turn.prompt)] : [];
    const record = readTurnRecord((turn.result.metadata as TurnMetadata | undefined)?.record);
    if (record && (record.rounds.length > 0 || record.answer)) return turnMessages(record);
    const text = turn.response
      .map((part) => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : ''))
      .join('')
      .trim();
    return text ? [{ role: 'assistant', parts: [{ kind: 'text', text }] }] : [];
  });
}

/** A user message of plain text. */
export function userText(text: string): ConversationMessage {
  return { role: 'user', parts: [{ kind: 'text', text }] };
}
