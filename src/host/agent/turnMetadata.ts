import type { TurnRecord } from '../../core';
import type { ParticipantCommand } from '../chatNames';

/** What a turn did, kept by VS Code with it (its result's metadata): the follow-ups and the next questions' history read it. */
export interface TurnMetadata {
  command?: ParticipantCommand;
  query?: string;
  /** The turn's tool calls and results, and its answer (see core/agent/turnRecord.ts). */
  record?: TurnRecord;
}
