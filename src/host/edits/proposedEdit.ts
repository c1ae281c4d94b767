import * as vscode from 'vscode';
import { changeSummary, planEdit, reviewChange, sensitivity, type ChangeSummary, type EditInput } from '../../core';
import type { ChangeReviews, ReviewAnswer } from './changeReviews';
import { changeNotes } from './changeNotes';
import { isRefusal, WorkspacePort, type WorkspaceFile } from '../workspace/workspacePort';

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

/** What became of a proposed edit; the caller words it for its reader (the model, or the user). */
export type EditOutcome =
  | { kind: 'refused'; reason: string }
  | { kind: 'notApplied'; answer: Exclude<ReviewAnswer, 'apply'>; label: string }
  | { kind: 'changedMeanwhile'; label: string }
  | { kind: 'failed'; label: string }
  | { kind: 'applied'; label: string; created: boolean; saved: boolean; firstLine: number; before: string | undefined; after: string };

/**
 * One exact piece of a workspace file replaced, or a new file written, only after the user saw the
 * change in the diff editor and applied it (ChangeReviews, every time). Only the workspace port's
 * files can be changed (no link, secret, ignored or `.git` file); a change that hides text
 * (invisible characters, a long run of spaces) is refused, and one to a file that can run code is
 * marked so. Only the change is saved: a file with unsaved changes of the user's is changed and
 * left for the user to save. A change that no longer applies when accepted (the file changed
 * meanwhile) is refused, never applied elsewhere. Used by @gigachat's edit tool and the review's Fix.
 */
export async function proposeEdit(reviews: ChangeReviews, input: EditInput | undefined, token: vscode.CancellationToken): Promise<EditOutcome> {
  const planned = await plan(input);
  if ('refused' in planned) return { kind: 'refused', reason: planned.refused };
  const answer = await reviews.ask(
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
  if (answer !== 'apply') return { kind: 'notApplied', answer, label: planned.file.label };
  // Planned again: the file may have changed while the user looked. Elsewhere in it is fine (the user may type on); the
  // change itself must still be the one shown: the same text replaced, found once, or a file still to be created.
  const now = await plan(input);
  if ('refused' in now || !sameChange(now, planned)) return { kind: 'changedMeanwhile', label: planned.file.label };
  const saved = await apply(now);
  if (saved === undefined) return { kind: 'failed', label: now.file.label };
  return {
    kind: 'applied',
    label: now.file.label,
    created: !now.file.exists,
    saved,
    firstLine: now.firstLine,
    before: now.file.exists ? now.before : undefined,
    after: now.after,
  };
}

function sameChange(now: PlannedChange, shown: PlannedChange): boolean {
  return (
    now.file.uri.toString() === shown.file.uri.toString() &&
    now.file.exists === shown.file.exists &&
    now.oldText === shown.oldText &&
    now.newText === shown.newText
  );
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
