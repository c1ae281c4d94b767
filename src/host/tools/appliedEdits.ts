/** Edits remembered at most: enough for the calls in flight, never a growing list. */
const MAX_REMEMBERED = 50;

/**
 * The edits the edit tool applied, until the caller that asked for each takes it: VS Code runs a
 * tool through `lm.invokeTool`, whose result is text for the model, so `@gigachat` learns here
 * which file a call changed (to keep it with the turn and name it when the turn fails later). A
 * call is matched by its input, which the caller knows.
 */
export class AppliedEdits {
  private readonly applied = new Map<string, string[]>();

  /** The edit asked for with `input` changed the file `label`. */
  record(input: unknown, label: string): void {
    const key = keyOf(input);
    this.applied.set(key, [...(this.applied.get(key) ?? []), label]);
    if (this.applied.size > MAX_REMEMBERED) this.applied.delete(this.applied.keys().next().value as string);
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
