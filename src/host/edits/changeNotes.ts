import * as vscode from 'vscode';
import type { ChangeSummary, SensitiveKind, Sensitivity } from '../../core';
import { countMessage } from '../countMessage';

/** What the question about a change says besides the file's name. */
export interface ChangeFacts {
  isNew: boolean;
  summary: ChangeSummary;
  /** Lines too long to see whole in the diff editor, 1-based in the changed file. */
  longLines: readonly { line: number; length: number }[];
  sensitivity: Sensitivity | undefined;
}

/** Long lines named one by one at most; the rest are counted. */
const NAMED_LONG_LINES = 3;

/**
 * The sentences of the question about a change, in the user's language: what kind of file it is
 * when its change can run code (the question is then a warning), the size of the change, and the
 * lines whose end the diff editor hides past its right edge.
 */
export function changeNotes(facts: ChangeFacts): { notes: string[]; warn: boolean } {
  const notes: string[] = [];
  if (facts.sensitivity) notes.push(`⚠ ${SENSITIVE[facts.sensitivity.kind]()}`);
  notes.push(
    facts.isNew
      ? countMessage('A new file of {0|# line|# lines}.', facts.summary.addedLines)
      : countMessage('{0|# line|# lines} removed, {1|# line|# lines} added.', facts.summary.removedLines, facts.summary.addedLines),
  );
  for (const { line, length } of facts.longLines.slice(0, NAMED_LONG_LINES))
    notes.push(countMessage('Line {0} is {1|# character|# characters} long: scroll right in the diff to see all of it.', String(line), length));
  if (facts.longLines.length > NAMED_LONG_LINES)
    notes.push(countMessage('{0|# other line is|# other lines are} that long.', facts.longLines.length - NAMED_LONG_LINES));
  return { notes, warn: facts.sensitivity !== undefined };
}

/** Why a change to such a file deserves a second look, as the question says it. */
const SENSITIVE: Record<SensitiveKind, () => string> = {
  editorConfig: () => vscode.l10n.t("This file configures VS Code or the project's editor setup: settings, tasks and launch configurations can run commands."),
  workspaceFile: () => vscode.l10n.t('This workspace file configures VS Code: its settings and tasks can run commands.'),
  ciWorkflow: () => vscode.l10n.t('This is a CI configuration: it runs commands on the build servers, with their secrets.'),
  gitHook: () => vscode.l10n.t('This configures git hooks: they run commands on commit or push.'),
  packageScripts: () => vscode.l10n.t('This changes package scripts: npm runs them on install, build or test.'),
  buildFile: () => vscode.l10n.t('This is a build file: it runs commands when the project is built or tested.'),
  script: () => vscode.l10n.t('This is a script: it runs commands when it is run.'),
};
