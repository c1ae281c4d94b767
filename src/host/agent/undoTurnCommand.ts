import * as vscode from 'vscode';
import { planTurnUndo, type FileChange, type UndoStep } from '../../core';
import type { ChangeReviews } from '../edits/changeReviews';
import { proposeEdit } from '../edits/proposedEdit';
import { isRefusal, WorkspacePort } from '../workspace/workspacePort';
import { notify } from '../notify';

/** Turns kept for Undo This Turn at most: the newest of a session, in memory only (a reload forgets them). */
const MAX_TURNS = 20;

/**
 * Undo This Turn, under an `@gigachat` answer that changed files: each file the turn changed gets
 * its text back (a file it created goes), each shown in the diff editor and applied only after the
 * user's yes, as every change is. A file changed since the turn (by the user, or a later turn) is
 * left as it is, and named.
 */
export class TurnUndo {
  private readonly turns = new Map<string, FileChange[]>();
  private made = 0;

  constructor(private readonly reviews: ChangeReviews) {}

  /** Keeps a turn's changes; returns the id its Undo This Turn button passes back. */
  keep(changes: FileChange[]): string {
    const id = `turn-${++this.made}`;
    this.turns.set(id, changes);
    if (this.turns.size > MAX_TURNS) this.turns.delete(this.turns.keys().next().value as string);
    return id;
  }

  /** The command behind the button. */
  async undo(id: unknown): Promise<void> {
    const changes = typeof id === 'string' ? this.turns.get(id) : undefined;
    if (!changes) {
      void notify(
        'info',
        vscode.l10n.t("GigaChat no longer knows this turn's changes (the window was reloaded since): the Timeline view has each file's earlier versions."),
      );
      return;
    }
    const steps = planTurnUndo(changes, await textsNow(changes));
    const undone: string[] = [];
    const left: string[] = [];
    for (const step of steps) {
      if (step.kind === 'alreadyUndone') continue;
      if (step.kind !== 'changedSince' && (await this.undoStep(step))) undone.push(step.label);
      else left.push(step.label);
    }
    if (left.length === 0) this.turns.delete(id as string);
    const changedSince = steps.filter((step) => step.kind === 'changedSince').map((step) => step.label);
    const message = [
      undone.length > 0 ? vscode.l10n.t('Undone: {0}.', undone.join(', ')) : vscode.l10n.t('Nothing was undone.'),
      changedSince.length > 0 ? vscode.l10n.t('Changed since the turn, so left as they are: {0}.', changedSince.join(', ')) : '',
    ].join(' ');
    void notify(changedSince.length > 0 ? 'warning' : 'info', message.trim());
  }

  /** One file back as it was, after the user saw the diff and applied it; whether it was. */
  private async undoStep(step: Extract<UndoStep, { kind: 'restore' | 'remove' }>): Promise<boolean> {
    const token = new vscode.CancellationTokenSource().token;
    if (step.kind === 'restore') {
      const outcome = await proposeEdit(this.reviews, { path: step.label, oldText: step.current, newText: step.text }, token);
      return outcome.kind === 'applied';
    }
    const file = await new WorkspacePort().resolve(step.label);
    if (isRefusal(file) || !file.exists) return false;
    const answer = await this.reviews.ask(
      {
        file: file.uri,
        label: file.label,
        before: step.current,
        after: '',
        notes: [vscode.l10n.t('The turn created this file: undoing deletes it.')],
        warn: false,
      },
      token,
    );
    if (answer !== 'apply') return false;
    const edit = new vscode.WorkspaceEdit();
    edit.deleteFile(file.uri, { ignoreIfNotExists: true });
    return vscode.workspace.applyEdit(edit);
  }
}

/** Each changed file's text now, as the editor has it (undefined: gone, or not a file the port reads). */
async function textsNow(changes: readonly FileChange[]): Promise<(label: string) => string | undefined> {
  const port = new WorkspacePort();
  const texts = new Map<string, string | undefined>();
  for (const label of new Set(changes.map((change) => change.label))) {
    const file = await port.resolve(label);
    texts.set(label, isRefusal(file) || !file.exists ? undefined : await port.readText(file));
  }
  return (label) => texts.get(label);
}
