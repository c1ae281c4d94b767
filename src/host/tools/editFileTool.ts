import * as vscode from 'vscode';
import { changeSummary, planEdit, reviewChange, sensitivity, type ChangeSummary, type EditInput } from '../../core';
import type { ChangeReviews, ReviewAnswer } from '../edits/changeReviews';
import { changeNotes } from '../edits/changeNotes';
import { isRefusal, WorkspacePort, type WorkspaceFile } from '../workspace/workspacePort';
import type { AppliedEdits } from './appliedEdits';
import { progressText, toolText } from './toolText';

/** A change worked out and checked, ready to show. */
interface PlannedChange {
  file: WorkspaceFile;
  before: string;
  after: string;
  offset: number;
  oldText: string;
  newText: string;
  firstLine: number;
  summary: ChangeSummary;
  /** Lines of the new text too long to see whole in the diff editor (see reviewChange). */
  longLines: { line: number; length: number }[];
}

/**
 * `gigachat_editFile`: replaces one exact piece of a workspace file, or writes a new file. The
 * extension itself asks the user about every change, each time (ChangeReviews: the diff editor and
 * Apply / Discard; VS Code's own confirmation would offer to allow every later edit of the
 * session). Only the workspace port's files can be changed (no link, secret, ignored or `.git`
 * file); a change that hides text (invisible characters, a long run of spaces) is refused, and one
 * to a file that can run code is marked so. Only the change is saved: a file with unsaved changes
 * of the user's is changed and left for the user to save. A change that no longer applies when
 * accepted (the file changed meanwhile) is refused, never applied elsewhere.
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
    const planned = await plan(options.input);
    if ('refused' in planned) return toolText(planned.refused);
    const answer = await this.reviews.ask(
      {
        file: planned.file.uri,
        label: planned.file.label,
        before: planned.before,
        after: planned.after,
        ...changeNotes({
          isNew: !planned.file.exists,
          summary: planned.summary,
          longLines: planned.longLines,
          sensitivity: sensitivity(planned.file.path, planned.file.exists ? planned.before : undefined, planned.after),
        }),
      },
      token,
    );
    if (answer !== 'apply') return toolText(notApplied(answer, planned.file.label));
    // Planned again: the file may have changed while the user looked. Elsewhere in it is fine (the user may type on); the
    // change itself must still be the one shown: the same text replaced, found once, or a file still to be created.
    const now = await plan(options.input);
    if ('refused' in now || !sameChange(now, planned))
      return toolText(`${planned.file.label} changed while the user was looking at the change, so nothing was applied: read the file again.`);
    const saved = await apply(now);
    if (saved === undefined) return toolText(`${now.file.label} could not be changed (VS Code refused the edit).`);
    this.edits.record(options.input, now.file.label);
    if (!now.file.exists) return toolText(`Created ${now.file.label}.`);
    return toolText(
      saved
        ? `Changed ${now.file.label} from line ${now.firstLine}; the file is saved.`
        : `Changed ${now.file.label} from line ${now.firstLine}. It had unsaved changes of the user's, so it was not saved: the user saves it.`,
    );
  }
}

function sameChange(now: PlannedChange, shown: PlannedChange): boolean {
  return (
    now.file.uri.toString() === shown.file.uri.toString() &&
    now.file.exists === shown.file.exists &&
    now.oldText === shown.oldText &&
    now.newText === shown.newText
  );
}

function notApplied(answer: Exclude<ReviewAnswer, 'apply'>, label: string): string {
  return answer === 'discard'
    ? `The user discarded this change to ${label}: the file is unchanged. Do not make it again; ask what they want instead.`
    : `The user closed the change to ${label} without applying it: the file is unchanged. Do not make it again unless they ask.`;
}

async function plan(input: EditInput | undefined): Promise<PlannedChange | { refused: string }> {
  if (typeof input?.path !== 'string' || input.path.trim() === '') return { refused: 'Give the path of the file to change.' };
  const port = new WorkspacePort();
  const file = await port.resolve(input.path);
  if (isRefusal(file)) return file;
  const current = await port.readText(file);
  if (file.exists && current === undefined) return { refused: `${file.label} cannot be read as text, so it cannot be changed here.` };
  const edit = planEdit(input, current, file.label);
  if (edit.kind === 'refused') return { refused: edit.reason };
  const before = current ?? '';
  const [offset, oldText, firstLine] = edit.kind === 'replace' ? [edit.offset, edit.oldText, edit.firstLine] : [0, '', 1];
  const review = reviewChange(oldText, edit.newText, firstLine);
  if (review.refused) return { refused: `The change to ${file.label} was not shown to the user: ${review.refused}` };
  const after = before.slice(0, offset) + edit.newText + before.slice(offset + oldText.length);
  return { file, before, after, offset, oldText, newText: edit.newText, firstLine, summary: changeSummary(edit), longLines: review.longLines };
}

/**
 * Applies the change; resolves to whether the file was saved, or undefined when VS Code refused.
 * A new file is written as it is. An existing one is changed in its editor's document and saved
 * only when it had no unsaved changes, so nothing of the user's is saved without them.
 */
async function apply(change: PlannedChange): Promise<boolean | undefined> {
  const edit = new vscode.WorkspaceEdit();
  if (!change.file.exists) {
    edit.createFile(change.file.uri, { ignoreIfExists: false, contents: new TextEncoder().encode(change.newText) });
    if (!(await vscode.workspace.applyEdit(edit))) return undefined;
    await show(await vscode.workspace.openTextDocument(change.file.uri), 1);
    return true;
  }
  const document = await vscode.workspace.openTextDocument(change.file.uri);
  const hadUnsavedChanges = document.isDirty;
  edit.replace(
    change.file.uri,
    new vscode.Range(document.positionAt(change.offset), document.positionAt(change.offset + change.oldText.length)),
    change.newText,
  );
  if (!(await vscode.workspace.applyEdit(edit))) return undefined;
  const saved = !hadUnsavedChanges && (await document.save());
  await show(document, change.firstLine);
  return saved;
}

async function show(document: vscode.TextDocument, line: number): Promise<void> {
  const start = new vscode.Position(line - 1, 0);
  await vscode.window.showTextDocument(document, { preview: true, preserveFocus: true, selection: new vscode.Range(start, start) });
}
