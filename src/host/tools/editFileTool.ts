import * as vscode from 'vscode';
import type { EditInput } from '../../core';
import type { ChangeReviews, ReviewAnswer } from '../edits/changeReviews';
import { proposeEdit } from '../edits/proposedEdit';
import type { AppliedEdits } from './appliedEdits';
import { progressText, toolText } from './toolText';

/**
 * `gigachat_editFile`: replaces one exact piece of a workspace file, or writes a new file. The
 * extension itself asks the user about every change, each time (proposeEdit: the diff editor and
 * Apply / Discard; VS Code's own confirmation would offer to allow every later edit of the
 * session), and tells the model what became of it.
 */
export class EditFileTool implements vscode.LanguageModelTool<EditInput> {
  constructor(
    private readonly reviews: ChangeReviews,
    private readonly edits: AppliedEdits,
  ) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<EditInput>): vscode.PreparedToolInvocation {
    // No `confirmationMessages`: the tool asks itself, with the diff, every time (see invoke).
    return { invocationMessage: progressText(vscode.l10n.t('Proposing a change to {0}', String(options.input?.path))) };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<EditInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const outcome = await proposeEdit(this.reviews, options.input, token);
    switch (outcome.kind) {
      case 'refused':
        return toolText(outcome.reason);
      case 'notApplied':
        return toolText(notApplied(outcome.answer, outcome.label));
      case 'changedMeanwhile':
        return toolText(`${outcome.label} changed while the user was looking at the change, so nothing was applied: read the file again.`);
      case 'failed':
        return toolText(`${outcome.label} could not be changed (VS Code refused the edit).`);
    }
    this.edits.record(options.input, { label: outcome.label, before: outcome.before, after: outcome.after });
    if (outcome.created) return toolText(`Created ${outcome.label}.`);
    return toolText(
      outcome.saved
        ? `Changed ${outcome.label} from line ${outcome.firstLine}; the file is saved.`
        : `Changed ${outcome.label} from line ${outcome.firstLine}. It had unsaved changes of the user's, so it was not saved: the user saves it.`,
    );
  }
}

function notApplied(answer: Exclude<ReviewAnswer, 'apply'>, label: string): string {
  return answer === 'discard'
    ? `The user discarded this change to ${label}: the file is unchanged. Do not make it again; ask what they want instead.`
    : `The user closed the change to ${label} without applying it: the file is unchanged. Do not make it again unless they ask.`;
}
