import type { FileChange } from '../../core';

/** Edits remembered at most: enough for the calls in flight, never a growing list. */
const MAX_REMEMBERED = 50;
/** Changes kept for Undo This Turn at most (the oldest go first): a turn makes at most a few dozen. */
const MAX_JOURNAL = 200;

/**
 * The edits the edit tool applied, until the caller that asked for each takes it: VS Code runs a
 * tool through `lm.invokeTool`, whose result is text for the model, so `@gigachat` learns here
 * which file a call changed (to keep it with the turn and name it when the turn fails later). A
 * call is matched by its input, which the caller knows.
 */
export class AppliedEdits {
  private readonly applied = new Map<string, string[]>();
  /** Every change applied, in order, with the texts before and after: what a turn did, to undo it. */
  private readonly journal: FileChange[] = [];
  private journalStart = 0;

  /** The edit asked for with `input` changed the file `change.label`. */
  record(input: unknown, change: FileChange): void {
    this.journal.push(change);
    if (this.journal.length > MAX_JOURNAL) {
      this.journal.shift();
      this.journalStart += 1;
    }
    const label = change.label;
    const key = keyOf(input);
    this.applied.set(key, [...(this.applied.get(key) ?? []), label]);
    if (this.applied.size > MAX_REMEMBERED) this.applied.delete(this.applied.keys().next().value as string);
  }

  /** Where the journal is now: a turn takes its changes with `changesSince` once it ends. */
  mark(): number {
    return this.journalStart + this.journal.length;
  }

  /** The changes applied since `mark`, in order. */
  changesSince(mark: number): FileChange[] {
    return this.journal.slice(Math.max(0, mark - this.journalStart));
  }

  /** The file an edit asked for with `input` changed, if one did since; forgotten once taken. */
  take(input: unknown): string | undefined {
    const key = keyOf(input);
    const [label, ...rest] = this.applied.get(key) ?? [];
    if (rest.length > 0) this.applied.set(key, rest);
    else this.applied.delete(key);
    return label;
  }
}

function keyOf(input: unknown): string {
  return JSON.stringify(input) ?? '';
}
