import * as vscode from 'vscode';
import { findingEdit } from '../../core';
import type { ChangeReviews } from '../edits/changeReviews';
import { proposeEdit } from '../edits/proposedEdit';
import type { Log } from '../log';
import { isRefusal, WorkspacePort } from '../workspace/workspacePort';
import { linesText, type ShownFinding } from './reviewFindingsView';
import { notify } from '../notify';

/**
 * A finding's Fix: its suggestion offered as @gigachat's edits are (the diff editor, Apply or
 * Discard, every time; nothing is written before Apply), and only while the lines read as they do
 * in the reviewed change (not after an edit since, nor where the working tree differs from a
 * reviewed staged change). Resolves to whether the file was changed.
 */
export async function fixFinding(shown: ShownFinding, reviews: ChangeReviews, log: Log): Promise<boolean> {
  const { finding, uri } = shown;
  if (finding.suggestion === undefined) return false;
  const document = await vscode.workspace.openTextDocument(uri).then(undefined, () => undefined);
  if (!document || finding.last > document.lineCount || linesText(document, finding.first, finding.last) !== shown.original) {
    void notify(
      'info',
      vscode.l10n.t(
        'The lines of this finding no longer read as in the reviewed change (edited since, or different from what is staged), so its fix does not apply. Review the change again.',
      ),
    );
    return false;
  }
  const file = await new WorkspacePort().judge(uri);
  const edit = findingEdit(document.getText(), finding.first, finding.last, finding.suggestion);
  if (isRefusal(file) || !edit) {
    log.warn(
      `The fix for "${finding.title}" was not offered: ${isRefusal(file) ? file.refused : 'its lines could not be told apart from others in the file.'}`,
    );
    void notify('warning', vscode.l10n.t('GigaChat’s fix cannot be offered for this file. The log says why.'));
    return false;
  }
  const outcome = await proposeEdit(reviews, { path: file.label, ...edit }, new vscode.CancellationTokenSource().token);
  switch (outcome.kind) {
    case 'applied':
      return true;
    case 'notApplied':
      return false;
    case 'changedMeanwhile':
      void notify('info', vscode.l10n.t('{0} changed while you were looking at the fix, so nothing was applied.', outcome.label));
      return false;
    case 'refused':
    case 'failed':
      log.warn(`The fix for "${finding.title}" was not applied: ${outcome.kind === 'refused' ? outcome.reason : 'VS Code refused the edit.'}`);
      void notify('warning', vscode.l10n.t('GigaChat’s fix cannot be offered for this file. The log says why.'));
      return false;
  }
}
