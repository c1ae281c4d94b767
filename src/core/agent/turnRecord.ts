import { z } from 'zod';
import type { ConversationMessage } from '../conversation/turns';
import { boundedText, type TextBounds } from './boundedText';

/** One tool call of an agent's turn and what it gave back, as the model read it. */
export interface ToolCallRecord {
  callId: string;
  toolName: string;
  input: Record<string, unknown>;
  result: string;
  /** The workspace file this call changed (its label), when it changed one. */
  changed?: string;
}

/** One round of a turn: the text the model wrote, then the calls it asked for, each with its result. */
export interface ToolRound {
  text: string;
  calls: ToolCallRecord[];
}

/**
 * What an agent's turn did, kept with the turn (VS Code stores it as the turn's result metadata)
 * and sent back as history with every later question, also when the turn failed half-way: a model
 * that does not see that an edit was made would make it again.
 */
export interface TurnRecord {
  rounds: ToolRound[];
  /** The model's last text, after its last tool call (or its whole answer when it called none). */
  answer: string;
}

export function emptyTurnRecord(): TurnRecord {
  return { rounds: [], answer: '' };
}

/** The files the turn changed, each once, in the order they were first changed. */
export function changedFiles(record: TurnRecord): string[] {
  const files = record.rounds.flatMap((round) => round.calls.flatMap((call) => (call.changed ? [call.changed] : [])));
  return [...new Set(files)];
}

const toolCallRecord = z.object({
  callId: z.string(),
  toolName: z.string(),
  input: z.record(z.string(), z.unknown()),
  result: z.string(),
  changed: z.string().optional(),
});

/** Read back from what VS Code stored: anything else (an older turn, a damaged file) gives no record. */
const turnRecordSchema = z.object({
  rounds: z.array(z.object({ text: z.string(), calls: z.array(toolCallRecord) })),
  answer: z.string(),
});

export function readTurnRecord(value: unknown): TurnRecord | undefined {
  const parsed = turnRecordSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * A result as an earlier turn's history carries it: what it said of a change is short and kept,
 * a file read or a log is cut (the model may read it again), so a long chat stays within the
 * model's context.
 */
export const HISTORY_RESULT_BOUNDS: TextBounds = { maxLineChars: 500, maxChars: 4_000 };

/** The record as it is kept with the turn for later questions: each result within HISTORY_RESULT_BOUNDS. */
export function forHistory(record: TurnRecord): TurnRecord {
  return {
    ...record,
    rounds: record.rounds.map((round) => ({
      ...round,
      calls: round.calls.map((call) => ({ ...call, result: boundedText(call.result, HISTORY_RESULT_BOUNDS).text })),
    })),
  };
}

/**
 * The turn as messages for the model's history: each round's text and calls as the assistant's,
 * their results as the user's (as VS Code's language model API carries them), then the answer.
 */
export function turnMessages(record: TurnRecord): ConversationMessage[] {
  const messages: ConversationMessage[] = [];
  for (const round of record.rounds) {
    messages.push({
      role: 'assistant',
      parts: [
        ...(round.text ? [{ kind: 'text' as const, text: round.text }] : []),
        ...round.calls.map((call) => ({ kind: 'toolCall' as const, callId: call.callId, toolName: call.toolName, input: call.input })),
      ],
    });
    messages.push({ role: 'user', parts: round.calls.map((call) => ({ kind: 'toolResult' as const, callId: call.callId, text: call.result })) });
  }
  if (record.answer) messages.push({ role: 'assistant', parts: [{ kind: 'text', text: record.answer }] });
  return messages;
}
