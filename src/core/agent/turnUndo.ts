/** A workspace file an agent's turn changed: its text before the change (undefined: the change created it), and after. */
export interface FileChange {
  label: string;
  before: string | undefined;
  after: string;
}

/**
 * What undoing a turn does to one of its files, judged on the file as it is now: a file still as
 * the turn left it gets its text back (or goes, when the turn created it); one changed since (by the
 * user, or a later turn) is left as it is and named; one already back as it was needs nothing.
 */
export type UndoStep =
  | { kind: 'restore'; label: string; current: string; text: string }
  | { kind: 'remove'; label: string; current: string }
  | { kind: 'changedSince'; label: string }
  | { kind: 'alreadyUndone'; label: string };

/** A turn's changes, one per file: the text before its first change and after its last, in the order first changed. */
export function changesPerFile(changes: readonly FileChange[]): FileChange[] {
  const merged = new Map<string, FileChange>();
  for (const change of changes) {
    const first = merged.get(change.label);
    merged.set(change.label, first ? { ...first, after: change.after } : { ...change });
  }
  return [...merged.values()];
}

/** The steps that undo `changes`, given each file's text now (`undefined`: it is gone or cannot be read). */
export function planTurnUndo(changes: readonly FileChange[], textNow: (label: string) => string | undefined): UndoStep[] {
  return changesPerFile(changes).map((change): UndoStep => {
    const current = textNow(change.label);
    if (current === change.before) return { kind: 'alreadyUndone', label: change.label };
    if (current !== change.after) return { kind: 'changedSince', label: change.label };
    return change.before === undefined
      ? { kind: 'remove', label: change.label, current }
      : { kind: 'restore', label: change.label, current, text: change.before };
  });
}
